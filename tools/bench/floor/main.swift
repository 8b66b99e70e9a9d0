// The bare process floor: a static Swift program that prints one line, built with the same
// flags as the release `timeline` (-O -static-executable). `tools/bench/run` builds it.
print("hello from the floor")
