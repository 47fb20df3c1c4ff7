# A module whose body raises: the import fails, and it is not left in sys.modules.
import helper

attempts = helper.Counter()
raise ValueError("fails_once could not load")
