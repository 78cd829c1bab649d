"""codeassist: cited answers from New York municipal stormwater, erosion-control and electrical codes."""

__version__ = "0.1.0"
