#!/bin/sh
# missing_packages.sh PACKAGE... - prints " NAME" for each PACKAGE that dpkg
# does not have installed (nothing when all are).  Run on this host
# (`sh missing_packages.sh ...`) or in a root (`chroot ROOT sh -s -- ... <
# missing_packages.sh`).
for p; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || printf ' %s' "$p"
done
