"""sweep, double build: the same names as the float build (``import sweep``),
with every number a double."""
from ._double import *  # noqa: F401,F403
from ._double import __version__, precision  # noqa: F401
