"""Settings modules: ``base`` (every environment), ``production`` (secure flags), ``test``."""
