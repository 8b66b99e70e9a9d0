// Nothing to call: this target only defines, for the linker, where the Swift standard library
// finds the command line (see arguments.c).
