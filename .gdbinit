# gdb setup for smpix: `make qemu-gdb` in one terminal, `make gdb` in another.
# Paths are relative: run gdb from the top of the tree.
#
# `make gdb` runs `gdb -q -nx -x .gdbinit`, so gdb's auto-load safe-path does not matter.
# A plain `gdb` in this directory refuses to load this file ("auto-loading has been
# declined") until you allow it once, in ~/.config/gdb/gdbinit (or ~/.gdbinit):
#     add-auto-load-safe-path /path/to/smpix/.gdbinit
# Without connecting, `gdb -nx -x .gdbinit` still loads the symbols and helpers.
set architecture i386
set disassembly-flavor att
set print pretty on
file build/kernel.elf
# The smpix commands (smpix cpus, bkl, ps, syscalls; `help smpix`): tools/gdb/smpix.py loads
# the files beside it. docs/debugging.md walks through them.
source tools/gdb/smpix.py
# Written by `make qemu-gdb` (or `make gdb`): "target remote localhost:PORT", PORT from your uid.
# If QEMU is not listening, gdb stops reading this file here; the symbols are loaded anyway.
source build/gdb-target.gdb
echo smpix: connected. Each vCPU is a gdb thread (info threads). Try: break kmain; continue; smpix cpus\n
