# pickle for Fusescope scripts: only what torch.load needs, which the engine does natively
# (torch.load's restricted unpickler, torch.save's pickler); here are the exceptions they
# raise, so that `except pickle.UnpicklingError` catches a refused checkpoint. pickle.dumps
# and pickle.loads are not provided (an AttributeError says so).
from _pickle import PickleError, PicklingError, UnpicklingError
