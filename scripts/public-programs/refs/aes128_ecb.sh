#!/bin/bash
# SPDX-License-Identifier: MIT
# Reference for ISPASS-2009 AES's encryption ("e 128 INPUT KEYFILE"): OpenSSL's AES-128-ECB with
# PKCS#7 padding of the same input under the same key (the key file's 16 hex bytes) must give
# the program's output file byte for byte. Exit 0 when it does.
# usage: aes128_ecb.sh KEYFILE INPUT OUTPUT
set -euo pipefail
key=$(tr -s ' \t\n' '\n' < "$1" | grep -iE '^0x[0-9a-f]{2}$' | head -16 | sed 's/^0[xX]//' | tr -d '\n')
[ ${#key} -eq 32 ] || { echo "aes128_ecb.sh: $1: no 16 hex bytes" >&2; exit 2; }
cmp -s <(openssl enc -aes-128-ecb -K "$key" -in "$2") "$3"
