"""fbec: the Fast Binary Encoding schema compiler (standard library only)."""

__version__ = "0.1.0"
