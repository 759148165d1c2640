/* storan's version; the Makefile may override it with -DSTORAN_VERSION. */
#ifndef STORAN_VERSION
#define STORAN_VERSION "0.1.0"
#endif
