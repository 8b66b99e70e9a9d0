// Debian's libexpat is built with XML_DTD (entity declarations, and the billion-laughs
// protection whose limits Sources/TimelineFeeds/XML/ExpatReader.swift sets); the header declares
// those limits only when XML_DTD is defined by its includer.
#define XML_DTD 1
#include <expat.h>
