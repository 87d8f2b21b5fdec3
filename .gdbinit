# gdb setup for smpix: `make qemu-gdb` in one terminal, `make gdb` in another.
# `make gdb` runs `gdb -nx -x .gdbinit`, so gdb's auto-load safe-path does not matter.
# To make a plain `gdb` in this directory load this file, add to ~/.gdbinit:
#     add-auto-load-safe-path /path/to/smpix/.gdbinit
set architecture i386
set disassembly-flavor att
set print pretty on
file build/kernel.elf
# Written by `make qemu-gdb`: "target remote localhost:PORT" (PORT derives from your uid).
source build/gdb-target.gdb
echo smpix: connected. Each vCPU is a gdb thread (info threads). Try: break kmain; continue\n
