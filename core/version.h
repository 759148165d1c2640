/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * storan's version.  The Makefile writes it into storan-version.h (from
 * scripts/version: a release's VERSION file or git describe); the number
 * below is the release being worked towards, the base of untagged
 * versions (0.1.0~gitN.gSHA).
 */
#if defined(__has_include)
#if __has_include("storan-version.h")
#include "storan-version.h"
#endif
#endif
#ifndef STORAN_VERSION
#define STORAN_VERSION "0.1.0"
#endif
