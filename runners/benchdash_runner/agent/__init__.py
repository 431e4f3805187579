"""The runner agent (`benchdash-runner`): asks the API for its system's runs, carries them out."""
