"""`make test-compose`: the Docker Compose stack run for real (see README.md here)."""
