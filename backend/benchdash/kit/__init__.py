"""Domain-free helpers shared by the domain packages."""
