# A module with __all__: `from exported import *` binds what it lists, a private name too,
# and nothing else.
__all__ = ["listed", "_private_listed"]
listed = 1
_private_listed = 2
not_listed = 3
