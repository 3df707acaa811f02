"""tgpl: the toolchain for TGPL, the Tabletop Game Prototype Language."""

__version__ = "0.1.0"
