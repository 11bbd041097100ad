"""The package version (solfec.__version__), a module of its own so that the package's
modules can name it without importing the package (which imports them)."""

__version__ = "0.1.0"
