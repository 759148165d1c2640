#!/usr/bin/env bash
# storan run: tests/runner/options.sh under a timeout.
exec timeout 240 bash "$(dirname "$0")/../runner/options.sh"
