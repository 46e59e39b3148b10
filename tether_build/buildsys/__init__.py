"""The build system: keys from recorded reads, workers, commit, manifest, watch, verify. Stages never import it."""
