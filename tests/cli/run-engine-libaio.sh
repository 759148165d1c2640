#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# storan run: tests/runner/engine.sh libaio under a timeout.
exec timeout 240 bash "$(dirname "$0")/../runner/engine.sh" libaio
