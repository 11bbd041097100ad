"""Process-wide state of a solfec session: command-line options and global settings."""

options = {
    "viewer": False,     # -v
    "write": False,      # -w: force WRITE mode
    "subdir": None,      # -s SUBDIR appended to every output path
    "deck": None,        # path of the running deck
    "argv": [],          # arguments after the deck (NON_SOLFEC_ARGV)
}

geometric_epsilon = 1e-6   # GEOMETRIC_EPSILON, applied to SOLFEC objects created later too
solfec_objects = []        # every SOLFEC object created in this process
