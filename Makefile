# smpix: build the kernel and the initrd, boot them in QEMU, run the tests.
# `make help` lists the targets and variables.

# Every core builds, unless make was given -jN itself: make test's own builds (two kernels, two
# initrds, the ISO, the host tests) took a third of its time one file at a time.
ifeq ($(filter -j%,$(MAKEFLAGS)),)
MAKEFLAGS += -j$(shell nproc 2>/dev/null || echo 1)
endif

BUILD   := build
CC      := gcc
LD      := ld
PYTHON  := python3
QEMU    := qemu-system-i386

CPUS    ?= 2
MEM     ?= 128
ACCEL   ?= tcg
APPEND  ?=
# A gdb port per user, as xv6 does, so two people on one machine do not collide.
GDBPORT ?= $(shell expr `id -u` % 5000 + 25000)

GCC_INCLUDE := $(shell $(CC) -print-file-name=include)

KCFLAGS := -m32 -march=i686 -std=gnu11 -O1 -g \
	-ffreestanding -fno-pie -fno-pic -fno-stack-protector -fno-builtin \
	-fno-omit-frame-pointer -mno-omit-leaf-frame-pointer -fno-optimize-sibling-calls -fno-strict-aliasing -fno-asynchronous-unwind-tables \
	-mgeneral-regs-only -nostdinc -isystem $(GCC_INCLUDE) -I. \
	-Wall -Wextra -Werror -Wno-unused-parameter -MMD -MP

# ERA=2.6.39: the kernel without the BKL (docs/bkl.md, "The eras"), in a directory of its own, so
# that it and the ordinary build never share an object. lock_kernel() does not exist there, and
# each of its sites takes a lock of its own (CONFIG_BKL, kernel/locking/bkl.h). The other eras are
# boot words of the ordinary kernel: make qemu APPEND=era=2.6.8.
ERA ?=
ERA_BASE_BUILD := $(BUILD)
# (override: a BUILD= given to make, or passed down to the make that builds it, must not win.)
ifeq ($(ERA),2.6.39)
override BUILD   := $(BUILD)/era-2.6.39
override KCFLAGS += -DCONFIG_NO_BKL
else ifneq ($(ERA),)
$(error ERA=$(ERA): only 2.6.39 is a build of its own (make ERA=2.6.39); boot the others with APPEND=era=$(ERA))
endif
KLDFLAGS := -m elf_i386 -nostdlib -z noexecstack --no-warn-rwx-segments

# Every .c and .S under kernel/, drivers/ and fs/ (each subsystem in its folder; see README's map).
# (Not kernel/x86/vdso/: that is user-mode code, linked on its own below.)
KSRCS := $(wildcard boot/*.S) \
	$(shell find kernel drivers fs \( -name '*.c' -o -name '*.S' \) -not -path 'kernel/x86/vdso/*' | LC_ALL=C sort)
KOBJS := $(patsubst %,$(BUILD)/%.o,$(KSRCS))

all: $(BUILD)/kernel.elf $(BUILD)/initrd.cpio

# V=1 shows the full commands.
ifeq ($(V),1)
Q :=
else
Q := @
endif

# Every compile needs the compiler and linker: say so once, before the first one fails.
build-tools:
	@tools/build/need.sh $(CC) $(LD)

$(BUILD)/%.c.o: %.c | build-tools
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(KCFLAGS) -c $< -o $@

$(BUILD)/%.S.o: %.S | build-tools
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  AS      $<")
	$(Q)$(CC) $(KCFLAGS) -c $< -o $@

# The vsyscall page (kernel/x86/sysenter.c): user-mode code linked as the shared object
# linux-gate.so.1 at the page's address, whose bytes vdso_image.S carries into the kernel.
VDSO_SO := $(BUILD)/vdso/linux-gate.so
$(VDSO_SO): kernel/x86/vdso/linux-gate.S kernel/x86/vdso/linux-gate.lds kernel/x86/vdso.h | build-tools
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  VDSO    $@")
	$(Q)$(CC) -m32 -I. -c kernel/x86/vdso/linux-gate.S -o $(BUILD)/vdso/linux-gate.o
	$(Q)$(LD) -m elf_i386 -shared -soname=linux-gate.so.1 --hash-style=both --eh-frame-hdr \
		-z max-page-size=4096 -T kernel/x86/vdso/linux-gate.lds $(BUILD)/vdso/linux-gate.o -o $@
$(BUILD)/kernel/x86/vdso_image.S.o: $(VDSO_SO)
$(BUILD)/kernel/x86/vdso_image.S.o: KCFLAGS += -DVDSO_SO='"$(VDSO_SO)"'

# ---- user programs, in the initrd's /bin and /sbin -------------------------------------
# Built with the host compiler as static i386 executables loaded at 0x08048000
# (user/user.ld). build/ubin/NAME keeps its symbols for gdb; the initrd gets a
# stripped copy as /bin/NAME, which execve() loads through the VFS.
UCFLAGS := -m32 -march=i686 -std=gnu11 -O1 -g -static -nostdlib -ffreestanding -fno-pie -fno-pic \
	-fno-stack-protector -fno-builtin -fno-asynchronous-unwind-tables -nostdinc -isystem $(GCC_INCLUDE) \
	-I. -Iuser/include -Iuser/lib -Wall -Wextra -Werror -Wno-unused-parameter -MMD -MP
ULIB_OBJS := $(patsubst %,$(BUILD)/%.o,$(wildcard user/lib/*.c user/lib/*.S))
# The kernel's string functions, printf engine and 64-bit division serve user programs too.
ULIB_SHARED := kernel/lib/string.c kernel/lib/format.c kernel/lib/div64.c
ULIB_OBJS += $(patsubst kernel/lib/%.c,$(BUILD)/user/klib/%.c.o,$(ULIB_SHARED))
# user/sbin's programs go to the initrd's /sbin, the others to /bin.
USBIN_SRCS := $(wildcard user/sbin/*.c)
UPROG_SRCS := $(wildcard user/bin/*.c user/tests/*.c) $(USBIN_SRCS)
UPROGS := $(addprefix $(BUILD)/ubin/,$(basename $(notdir $(UPROG_SRCS))))
USBINS := $(addprefix $(BUILD)/ubin/,$(basename $(notdir $(USBIN_SRCS))))
# A program too big for one file is a directory: user/bin/NAME/*.c are linked into /bin/NAME.
UDIR_PROGS := $(sort $(patsubst user/bin/%/,%,$(dir $(wildcard user/bin/*/*.c))))
UDIR_SRCS := $(wildcard $(addsuffix /*.c,$(addprefix user/bin/,$(UDIR_PROGS))))
UPROGS += $(addprefix $(BUILD)/ubin/,$(UDIR_PROGS))

$(BUILD)/user/%.c.o: user/%.c
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  UCC     $<")
	$(Q)$(CC) $(UCFLAGS) -c $< -o $@

# The fuzzer's pool of system calls: every number in kernel/uapi/unistd.h, so a new call
# is fuzzed from the day it is added (user/tests/fuzz.c includes the generated list).
$(BUILD)/gen/fuzz_syscalls.h: kernel/uapi/unistd.h
	@mkdir -p $(dir $@)
	$(Q)sed -n 's/^#define __NR_\([a-z0-9_]*\)[[:space:]]\{1,\}\([0-9]\{1,\}\).*/FUZZ_CALL(\1, \2)/p' $< > $@
$(BUILD)/user/tests/fuzz.c.o: $(BUILD)/gen/fuzz_syscalls.h
$(BUILD)/user/tests/fuzz.c.o: UCFLAGS += -I$(BUILD)/gen

$(BUILD)/user/klib/%.c.o: kernel/lib/%.c
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  UCC     $<")
	$(Q)$(CC) $(UCFLAGS) -c $< -o $@

$(BUILD)/user/%.S.o: user/%.S
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  UAS     $<")
	$(Q)$(CC) $(UCFLAGS) -c $< -o $@

# A program is linked from every object it depends on: its own, the libc's, and any
# extra ones given below.
ULINK = $(LD) -m elf_i386 -nostdlib -z noexecstack -z max-page-size=4096 -T user/user.ld -o $@ $(filter %.o,$^)

define UPROG_RULE
$(BUILD)/ubin/$(basename $(notdir $(1))): $(BUILD)/$(1).o $(ULIB_OBJS) user/user.ld
	@mkdir -p $$(dir $$@)
	@$$(if $$(Q),echo "  ULD     $$@")
	$$(Q)$$(ULINK)
endef
$(foreach s,$(UPROG_SRCS),$(eval $(call UPROG_RULE,$(s))))

define UDIR_RULE
$(BUILD)/ubin/$(1): $(patsubst %,$(BUILD)/%.o,$(wildcard user/bin/$(1)/*.c)) $(ULIB_OBJS) user/user.ld
	@mkdir -p $$(dir $$@)
	@$$(if $$(Q),echo "  ULD     $$@")
	$$(Q)$$(ULINK)
endef
$(foreach p,$(UDIR_PROGS),$(eval $(call UDIR_RULE,$(p))))

# The tools that are also shell builtins are the builtin's code with a main() around it.
$(BUILD)/ubin/printf: $(BUILD)/user/bin/sh/printf.c.o
$(BUILD)/ubin/test: $(BUILD)/user/bin/sh/test.c.o

# ---- compat: ordinary C programs built against the host's glibc ------------------
# user/compat/NAME.c -> /bin/compat-NAME in the initrd, a static i386 glibc binary as
# any Linux user would build it.
# Linked as any user would: glibc's start-up mprotect()s its RELRO segment read-only.
COMPAT_SRCS := $(wildcard user/compat/*.c)
COMPAT_PROGS := $(patsubst user/compat/%.c,$(BUILD)/ubin/compat-%,$(COMPAT_SRCS))
COMPAT_CFLAGS := -m32 -static -pthread -O2 -s -Wall -Wextra -Wno-unused-parameter -Werror

$(BUILD)/ubin/compat-%: user/compat/%.c
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  GLIBC   $<")
	$(Q)$(CC) $(COMPAT_CFLAGS) -o $@ $<

UPROGS += $(COMPAT_PROGS)
# ---- end of compat ------------------------------------------------------------------

# ---- sysbench: one binary for smpix and Linux (make bench-linux) ---------------------
# user/bench/: no C library, raw int $0x80 calls with Linux's numbers, built as anyone
# builds a static freestanding i386 program: the same file is /bin/sysbench here and
# /init in the Linux initramfs of tools/bench/bench_linux.py. (No memset or memcpy is linked:
# if GCC ever emits a call to one, the link fails and says so.)
SYSBENCH_SRCS := user/bench/start.S user/bench/sysbench.c user/bench/diskbench.c
SYSBENCH_CFLAGS := -m32 -static -nostdlib -ffreestanding -O2 -fno-pie -no-pie -fno-stack-protector \
	-fno-asynchronous-unwind-tables -I. -Wall -Wextra -Werror

$(BUILD)/ubin/sysbench: $(SYSBENCH_SRCS) user/bench/bench.h kernel/uapi/unistd.h kernel/uapi/ioctls.h kernel/uapi/fs.h
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  STATIC  $@")
	$(Q)$(CC) $(SYSBENCH_CFLAGS) -o $@ $(SYSBENCH_SRCS) -lgcc

UPROGS += $(BUILD)/ubin/sysbench
# ---- end of sysbench ------------------------------------------------------------------

# Link twice: the first link tells tools/build/mksyms.sh where every function is;
# the second builds that table in (after all code, so nothing moves).
$(BUILD)/ksyms0.S: tools/build/mksyms.sh
	@mkdir -p $(BUILD)
	$(Q)tools/build/mksyms.sh > $@

$(BUILD)/kernel.pass1.elf: $(KOBJS) $(BUILD)/ksyms0.S.o boot/kernel.ld
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(LD) $(KLDFLAGS) -T boot/kernel.ld -o $@ $(KOBJS) $(BUILD)/ksyms0.S.o

$(BUILD)/ksyms.S: $(BUILD)/kernel.pass1.elf tools/build/mksyms.sh
	$(Q)tools/build/mksyms.sh $< > $@

$(BUILD)/kernel.elf: $(BUILD)/kernel.pass1.elf $(BUILD)/ksyms.S.o
	@$(if $(Q),echo "  LD      $@ (with symbols)")
	$(Q)$(LD) $(KLDFLAGS) -T boot/kernel.ld -o $@ $(KOBJS) $(BUILD)/ksyms.S.o
	@tools/build/check-ksyms.sh $(BUILD)/kernel.pass1.elf $@

$(BUILD)/ksyms0.S.o $(BUILD)/ksyms.S.o: %.S.o: %.S
	$(Q)$(CC) $(KCFLAGS) -c $< -o $@

# The initial RAM disk: a cpio "newc" archive of build/initrd/: user/root's files
# and the stripped user programs in /bin.
INITRD_FILES := $(shell find user/root 2>/dev/null)
ifeq ($(ERA),2.6.39)
# The user programs are the same in every era: ERA=2.6.39's initrd is the ordinary build's, copied
# (compiling them twice was half the time of the era's build).
$(BUILD)/initrd.cpio: FORCE
	@$(MAKE) --no-print-directory ERA= $(ERA_BASE_BUILD)/initrd.cpio
	@mkdir -p $(BUILD)
	@cmp -s $(ERA_BASE_BUILD)/initrd.cpio $@ || cp $(ERA_BASE_BUILD)/initrd.cpio $@
else
$(BUILD)/initrd.cpio: $(INITRD_FILES) $(UPROGS)
	@tools/build/need.sh cpio strip
	@rm -rf $(BUILD)/initrd && mkdir -p $(BUILD)/initrd/bin $(BUILD)/initrd/sbin $(BUILD)/initrd/tmp
	cp -R user/root/. $(BUILD)/initrd/
	for p in $(filter-out $(USBINS),$(UPROGS)); do strip -o $(BUILD)/initrd/bin/$$(basename $$p) $$p || exit 1; done
	for p in $(USBINS); do strip -o $(BUILD)/initrd/sbin/$$(basename $$p) $$p || exit 1; done
	cd $(BUILD)/initrd && find . -mindepth 1 | LC_ALL=C sort | cpio --quiet -o -H newc --reproducible -R 0:0 > ../initrd.cpio
endif

# ---- BUSYBOX=1: Debian's busybox-static for i386 in a second initrd ------------------
# build/initrd-busybox.cpio is build/initrd.cpio's files plus the unmodified /bin/busybox from
# Debian's package (fetched once into build/busybox/ by tools/build/busybox.sh with apt-get download
# and dpkg-deb) and a symlink per applet in /usr/lib/busybox/bin, which /sbin/init puts on PATH
# after /bin and /sbin: smpix's own tools come first, busybox fills in the rest (docs/userland.md).
# `make qemu BUSYBOX=1` and `make iso BUSYBOX=1` boot it; the plain initrd stays as it is.
BUSYBOX ?=
BUSYBOX_DIR := $(BUILD)/busybox
BUSYBOX_APPLET_DIR := usr/lib/busybox/bin

# Fetched once: the download is kept until `make clean` (tools/build/busybox.sh does nothing if it is there).
$(BUSYBOX_DIR)/busybox:
	@tools/build/need.sh dpkg-deb apt-get
	tools/build/busybox.sh $(BUSYBOX_DIR)

# Also /etc/passwd and /etc/group naming root, which busybox's id, ls -l and ps look up.
$(BUILD)/initrd-busybox.cpio: $(BUILD)/initrd.cpio $(BUSYBOX_DIR)/busybox
	@rm -rf $(BUILD)/initrd-busybox && cp -R $(BUILD)/initrd $(BUILD)/initrd-busybox
	@mkdir -p $(BUILD)/initrd-busybox/$(BUSYBOX_APPLET_DIR) $(BUILD)/initrd-busybox/etc
	cp $(BUSYBOX_DIR)/busybox $(BUILD)/initrd-busybox/bin/busybox
	for a in $$(cat $(BUSYBOX_DIR)/applets); do \
		ln -s /bin/busybox $(BUILD)/initrd-busybox/$(BUSYBOX_APPLET_DIR)/$$a || exit 1; done
	echo 'root:x:0:0:root:/:/bin/sh' > $(BUILD)/initrd-busybox/etc/passwd
	echo 'root:x:0:' > $(BUILD)/initrd-busybox/etc/group
	cd $(BUILD)/initrd-busybox && find . -mindepth 1 | LC_ALL=C sort | \
		cpio --quiet -o -H newc --reproducible -R 0:0 > ../initrd-busybox.cpio

busybox: $(BUILD)/initrd-busybox.cpio

# For `make test`: the busybox initrd if busybox can be had here, else the reason, for the
# session's SKIP (tools/test/cases/55_busybox.py). Never fails.
busybox-maybe: $(BUILD)/initrd.cpio
	@rm -f $(BUILD)/busybox.unavailable
	@if ! tools/build/busybox.sh $(BUSYBOX_DIR) 2>$(BUILD)/busybox.log; then \
		cp $(BUILD)/busybox.log $(BUILD)/busybox.unavailable; \
		echo "busybox: not available here, its session will be skipped: $$(tail -n 1 $(BUILD)/busybox.log)"; \
	else $(MAKE) --no-print-directory $(BUILD)/initrd-busybox.cpio; fi

# What `make qemu` and `make iso` boot.
ifeq ($(BUSYBOX),1)
BOOT_INITRD := $(BUILD)/initrd-busybox.cpio
ISO_FILE := $(BUILD)/smpix-busybox.iso
else
BOOT_INITRD := $(BUILD)/initrd.cpio
ISO_FILE := $(BUILD)/smpix.iso
endif

# ---- running it -------------------------------------------------------------

QEMU_ACCEL := -accel $(ACCEL)
ifeq ($(ACCEL),kvm)
QEMU_ACCEL += -cpu host
endif
QEMUOPTS = -machine pc $(QEMU_ACCEL) -smp $(CPUS) -m $(MEM) -nographic -no-reboot \
	-device isa-debug-exit,iobase=0xf4,iosize=0x04

# SeaBIOS turns the terminal's line wrap off (ESC [?7l) and nothing turns it back on when
# QEMU ends: WRAP_ON does, whatever QEMU's exit status (which it keeps), on a terminal only.
WRAP_ON = status=$$?; if [ -t 1 ]; then printf '\033[?7h'; fi; exit $$status

# make qemu DISK=1: with build/disk.img (make disk) as hda, an IDE disk (docs/block.md).
DISK ?=
QEMU_DISK = $(if $(filter-out 0,$(DISK)),-drive file=$(BUILD)/disk.img$(comma)format=raw$(comma)if=ide$(comma)index=0)
comma := ,

qemu: all $(BOOT_INITRD) $(if $(filter-out 0,$(DISK)),disk)
	@tools/build/need.sh $(QEMU)
	$(QEMU) $(QEMUOPTS) -kernel $(BUILD)/kernel.elf -initrd $(BOOT_INITRD) $(QEMU_DISK) -append "$(APPEND)"; \
		$(WRAP_ON)

# make disk: build/disk.img, 64 MiB: an MBR, hda1 an ext2 file system made by e2fsprogs' mke2fs -d from
# user/root (tools/build/mkdisk.py), hda2 a raw scratch partition. Made once; rm it to start afresh.
DISK_MIB ?= 64
disk: $(BUILD)/disk.img
$(BUILD)/disk.img:
	@PATH="$$PATH:/usr/sbin:/sbin" tools/build/need.sh mke2fs $(PYTHON)
	@mkdir -p $(BUILD)
	PATH="$$PATH:/usr/sbin:/sbin" $(PYTHON) tools/build/mkdisk.py $@ $(DISK_MIB) --root user/root

qemu-gdb: all $(BOOT_INITRD)
	@tools/build/need.sh $(QEMU) gdb
	@echo "target remote localhost:$(GDBPORT)" > $(BUILD)/gdb-target.gdb
	@echo "*** QEMU is halted, waiting for gdb on port $(GDBPORT): run 'make gdb' in another terminal"
	$(QEMU) $(QEMUOPTS) -kernel $(BUILD)/kernel.elf -initrd $(BOOT_INITRD) -append "$(APPEND)" \
		-S -gdb tcp::$(GDBPORT); $(WRAP_ON)

# gdb connects to the port that `make qemu-gdb` wrote in build/gdb-target.gdb; if that
# file is missing (fresh tree, `make clean`) or GDBPORT is given explicitly, write it here.
gdb:
	@tools/build/need.sh gdb
	@test -f $(BUILD)/kernel.elf || { echo "make gdb: $(BUILD)/kernel.elf is missing: run 'make qemu-gdb' first" >&2; false; }
	@if [ ! -f $(BUILD)/gdb-target.gdb ] || [ "$(origin GDBPORT)" != file ]; then \
		echo "target remote localhost:$(GDBPORT)" > $(BUILD)/gdb-target.gdb; fi
	gdb -q -nx -x .gdbinit

# ---- the GRUB ISO -------------------------------------------------------------

# build/smpix.iso, and with BUSYBOX=1 build/smpix-busybox.iso: the same, with busybox's initrd.
define ISO_RULE
$(BUILD)/$(1).iso: $(BUILD)/kernel.elf $(2) boot/grub.cfg
	@tools/build/need.sh grub-mkrescue xorriso mformat
	@rm -rf $(BUILD)/$(1)-iso && mkdir -p $(BUILD)/$(1)-iso/boot/grub
	cp $(BUILD)/kernel.elf $(BUILD)/$(1)-iso/boot/
	cp $(2) $(BUILD)/$(1)-iso/boot/initrd.cpio
	cp boot/grub.cfg $(BUILD)/$(1)-iso/boot/grub/grub.cfg
	grub-mkrescue -o $$@ $(BUILD)/$(1)-iso 2>$(BUILD)/grub-mkrescue.log || (cat $(BUILD)/grub-mkrescue.log; false)
endef
$(eval $(call ISO_RULE,smpix,$(BUILD)/initrd.cpio))
$(eval $(call ISO_RULE,smpix-busybox,$(BUILD)/initrd-busybox.cpio))

iso: $(ISO_FILE)

qemu-iso: $(ISO_FILE)
	@tools/build/need.sh $(QEMU)
	$(QEMU) $(QEMUOPTS) -cdrom $(ISO_FILE) -boot d; $(WRAP_ON)

# ---- tests ----------------------------------------------------------------------

HOSTCC := gcc
HOSTCFLAGS := -std=gnu11 -g -O1 -I. -Wall -Wextra -Werror -fsanitize=address,undefined \
	-fno-sanitize-recover=all -fno-builtin -DHOST_TEST
HOSTTESTS := $(patsubst tools/test/hosttest/%.c,$(BUILD)/hosttest/%,$(wildcard tools/test/hosttest/test_*.c))
# Parsers of untrusted sizes also run as 32-bit programs: the kernel's size_t is 32 bits,
# and an offset that wraps there does not wrap on a 64-bit host.
HOSTTESTS += $(BUILD)/hosttest/test_cpio-i386

# Each host test names the kernel files it tests on its first line: "// TESTS: kernel/x.c ..."
$(BUILD)/hosttest/%: tools/test/hosttest/%.c tools/test/hosttest/hosttest.h
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  HOSTCC  $<")
	$(Q)$(HOSTCC) $(HOSTCFLAGS) -o $@ $< $$(sed -n '1s|^// TESTS:||p' $<) -MMD -MP

$(BUILD)/hosttest/%-i386: tools/test/hosttest/%.c tools/test/hosttest/hosttest.h
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  HOSTCC  $< (i386)")
	$(Q)$(HOSTCC) -m32 $(HOSTCFLAGS) -o $@ $< $$(sed -n '1s|^// TESTS:||p' $<) -MMD -MP

# test_cpio builds its good archives with the real cpio when it runs.
hosttest: $(HOSTTESTS)
	@tools/build/need.sh cpio

# The tools are checked before anything is built, so a fresh machine stops (or, as root,
# installs them with tools/build/deps.sh) at once instead of after the build.
# vfstest built for Linux with the host's C library: its expectations must hold on Linux too.
$(BUILD)/vfstest-linux: user/tests/vfstest.c $(wildcard kernel/uapi/*.h)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  HOSTCC  $< (Linux, i386, static)")
	$(Q)$(HOSTCC) -m32 -static -O1 -Wall -Wextra -Werror -DVFSTEST_LINUX -I. -o $@ $<

# The pipe, procfs, ioctl, mmap and sleep tests likewise (user/tests/gtest.h gives them raw syscalls on both).
GTESTS_LINUX := $(BUILD)/pipetest-linux $(BUILD)/flocktest-linux $(BUILD)/proctest-linux $(BUILD)/ioctltest-linux \
	$(BUILD)/mmaptest-linux $(BUILD)/sleeptest-linux $(BUILD)/compattest-linux $(BUILD)/threadtest-linux \
	$(BUILD)/tlbtest-linux $(BUILD)/jobtest-linux $(BUILD)/attrtest-linux
$(GTESTS_LINUX): $(BUILD)/%-linux: user/tests/%.c user/tests/gtest.h $(wildcard kernel/uapi/*.h)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  HOSTCC  $< (Linux, i386, static)")
	$(Q)$(HOSTCC) -m32 -static -std=gnu11 -O1 -Wall -Wextra -Werror -Wno-unused-parameter -DLINUX_HOST \
		-I. -o $@ $<

# /init of the Linux reference (tools/test/linuxref.py): boots on Debian's i386 kernel and runs the above.
$(BUILD)/linuxref/init: tools/test/linuxref/init.c
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  HOSTCC  $< (Linux, i386, static)")
	$(Q)$(HOSTCC) -m32 -static -O1 -Wall -Wextra -Werror -o $@ $<

test: test-tools all iso hosttest $(BUILD)/vfstest-linux $(GTESTS_LINUX) $(BUILD)/linuxref/init busybox-maybe era-2.6.39
	$(PYTHON) tools/test/harness.py

# The checks a student needs after a change, in under two minutes (tools/test/harness.py's CHECK).
check: test-tools all hosttest
	$(PYTHON) tools/test/harness.py --check

# The kernel without the BKL (make ERA=2.6.39, build/era-2.6.39/), which tools/test/cases/32_eras.py boots.
era-2.6.39: $(BUILD)/initrd.cpio
	$(MAKE) --no-print-directory ERA=2.6.39 all

test-tools:
	@tools/build/need.sh $(QEMU) $(PYTHON) cpio grub-mkrescue xorriso mformat

# The syscall fuzzer for as long as you like: make fuzz SECONDS=600 CPUS=4 SEED=1234 (SEED=0: a new one).
SECONDS ?= 60
SEED    ?= 0
fuzz: all
	@tools/build/need.sh $(QEMU) $(PYTHON)
	SECONDS_=$(SECONDS) CPUS=$(CPUS) SEED=$(SEED) MEM=$(MEM) APPEND="$(APPEND)" $(PYTHON) tools/test/fuzz.py

# The ioctl scaling benchmark (tools/bench/bench.py, docs/performance.md): BENCH_BOOTS boots at each -smp
# size in BENCH_CPUS, each running BENCH_ROUNDS rounds of 1..N workers per mode, BENCH_MS ms per run;
# results in build/bench/. BENCH_CPUS defaults to 2 and 4, but no more vCPUs than the host has cores
# (about 6 minutes under TCG on 2 cores); BENCH_CPUS="2 4" forces both, and targets at more vCPUs than
# cores are then reported, not judged. BENCH_DOCS=1 also copies the plots and the tables into docs/img/.
BENCH_CPUS ?=
BENCH_BOOTS ?= 3
BENCH_ROUNDS ?= 7
BENCH_MS ?= 300
ifneq ($(filter-out 0,$(ERAS)),)
bench: bench-eras
else
bench: all
	@tools/build/need.sh $(QEMU) $(PYTHON) gnuplot
	BENCH_CPUS="$(BENCH_CPUS)" BENCH_BOOTS=$(BENCH_BOOTS) BENCH_ROUNDS=$(BENCH_ROUNDS) BENCH_MS=$(BENCH_MS) \
		ACCEL=$(ACCEL) MEM=$(MEM) $(PYTHON) tools/bench/bench.py $(if $(BENCH_DOCS),--update-docs)
	$(if $(filter-out 0,$(BENCH_DISK)),$(MAKE) --no-print-directory bench-disk)
	$(if $(filter-out 0,$(LINUX)),$(MAKE) --no-print-directory bench-linux)
endif

# The disks (issue 32; tools/bench/bench_disk.py, docs/performance.md): two IDE disks on the two
# channels at -smp 2, BENCH_DISK_BOOTS boots of each block-lock era (blk_lock=bkl, global, queue), each
# BENCH_DISK_ROUNDS rounds of one process, then two on two disks, writing and reading BENCH_DISK_MIB MiB
# raw; then a BENCH_DISK_FILE_MIB MiB file on ext2. A table, and the target judged (queue's two disks
# keep one disk's speed; the single locks' beside it, reported). About 5 minutes on a loaded 2-core host; make bench runs
# it after the ioctl benchmark (BENCH_DISK=0: not). Results in build/bench/disk.*.
BENCH_DISK ?= 1
BENCH_DISK_BOOTS ?= 3
BENCH_DISK_ROUNDS ?= 3
BENCH_DISK_MIB ?= 2
BENCH_DISK_FILE_MIB ?= 64
bench-disk: all
	@PATH="$$PATH:/usr/sbin:/sbin" tools/build/need.sh $(QEMU) $(PYTHON) mke2fs
	BENCH_DISK_BOOTS=$(BENCH_DISK_BOOTS) BENCH_DISK_ROUNDS=$(BENCH_DISK_ROUNDS) BENCH_DISK_MIB=$(BENCH_DISK_MIB) \
		BENCH_DISK_FILE_MIB=$(BENCH_DISK_FILE_MIB) ACCEL=$(ACCEL) MEM=$(MEM) SMPIX_BUILD=$(BUILD) \
		$(PYTHON) tools/bench/bench_disk.py

# make bench ERAS=1: one workload booted once per era, the 2.6.39 build for the last, into one plot
# (tools/bench/bench_eras.py, docs/bkl.md "The eras"); results in build/bench/eras.*. BENCH_DOCS=1 also
# copies the plot and the table into docs/img/.
bench-eras: all era-2.6.39
	@tools/build/need.sh $(QEMU) $(PYTHON) gnuplot
	ACCEL=$(ACCEL) MEM=$(MEM) $(PYTHON) tools/bench/bench_eras.py$(if $(BENCH_DOCS), --update-docs)

# The same static binary (/bin/sysbench) booted as init on smpix and on Debian 12's Linux 6.1,
# interleaved (tools/bench/bench_linux.py, docs/performance.md); `make bench LINUX=1` runs it after
# make bench. It fetches the kernel with apt-get download (make deps adds the i386 architecture);
# without it, it says so and measures smpix alone. The disk boots (sysbench's disk mode on the two
# images of bench-disk; Linux's ata_piix, sd_mod and ext4 modules come from the same package) too,
# unless BENCH_LINUX_DISK=0. Results in build/bench/linux.*.
BENCH_LINUX_BOOTS ?= 3
BENCH_LINUX_DISK ?= 1
bench-linux: all
	@tools/build/need.sh $(QEMU) $(PYTHON) gnuplot apt-get dpkg-deb tar
	BENCH_LINUX_BOOTS=$(BENCH_LINUX_BOOTS) BENCH_LINUX_DISK=$(BENCH_LINUX_DISK) ACCEL=$(ACCEL) MEM=$(MEM) SMPIX_BUILD=$(BUILD) \
		$(PYTHON) tools/bench/bench_linux.py$(if $(BENCH_DOCS), --update-docs)

# The event trace of one command (tools/bench/trace.py, docs/tracing.md): make trace CMD="ioctlbench -d bkl" CPUS=4
# boots, runs CMD at the shell with /proc/sys/kernel/trace on, and writes build/trace/trace.txt (the
# text of /proc/trace), trace.json (Chrome's Trace Event Format: Perfetto, chrome://tracing) and timeline.svg.
# DISK=1: with make bench-disk's two IDE disks (hda, hdc), e.g. APPEND=blk_lock=global CMD="sysbench disk -S 1 /dev/hda2 /dev/hdc2".
CMD ?= ioctlbench -d bkl
trace: all
	@tools/build/need.sh $(QEMU) $(PYTHON)
	$(PYTHON) tools/bench/trace.py --cmd "$(CMD)" --cpus $(CPUS) --mem $(MEM) --append "$(APPEND)" \
		$(if $(filter-out 0,$(DISK)),--disks)

# ---- the teaching labs (docs/labs/) ----------------------------------------------
# make handout LAB=n: the student tree of lab n, with the solution regions of lab n and of every
# later lab (/* LABn: BEGIN name */ ... /* LABn: END */) replaced by their stubs from
# tools/labs/labN.stubs, in build/handout-labN/ and build/handout-labN.tar.gz; FROM=dir also copies
# a student's own files of the earlier labs in (docs/labs/README.md). make grade LAB=n: that lab's
# checks, in QEMU, on this tree (JSON=1: as JSON). tools/grade-all grades a class from this tree.
LAB ?=
FROM ?=
JSON ?=
handout:
	@test -n "$(LAB)" || { echo "usage: make handout LAB=n [FROM=student-tree] (see docs/labs/)" >&2; false; }
	@tools/build/need.sh $(PYTHON) tar
	SMPIX_BUILD=$(BUILD) $(PYTHON) tools/labs/handout.py $(LAB) $(if $(FROM),--from $(FROM))
	tar -C $(BUILD) -czf $(BUILD)/handout-lab$(LAB).tar.gz handout-lab$(LAB)
	@echo "handout: $(BUILD)/handout-lab$(LAB).tar.gz is ready to give out"

grade: all
	@test -n "$(LAB)" || { echo "usage: make grade LAB=n [JSON=1] (see docs/labs/)" >&2; false; }
	@tools/build/need.sh $(QEMU) $(PYTHON) $(if $(filter 1,$(LAB)),gdb)
	$(if $(filter 1,$(JSON)),@)SMPIX_BUILD=$(BUILD) $(PYTHON) tools/labs/grade.py $(LAB) $(if $(filter 1,$(JSON)),--json)

# BUSYBOX=1: also fetch Debian's busybox-static for i386 (tools/build/busybox.sh: the i386 architecture,
# apt-get update, apt-get download, dpkg-deb -x).
deps:
	tools/build/deps.sh
	$(if $(filter 1,$(BUSYBOX)),tools/build/busybox.sh $(BUSYBOX_DIR))

# For clangd and clang-tidy: every compile command, from `make -n` (tools/build/compiledb.py), so
# nothing is built and build/ is left alone. Kernel entries come first: clangd takes them for
# kernel/*.c, which the host tests compile again with -DHOST_TEST.
compile_commands.json:
	@tools/build/need.sh $(PYTHON)
	$(PYTHON) tools/build/compiledb.py $@

clean:
	rm -rf $(BUILD)

help:
	@sed -n '/^## /s/^## //p' README.md | head -0
	@echo "targets: all disk qemu qemu-gdb gdb iso qemu-iso test check fuzz bench bench-disk bench-eras bench-linux trace handout grade deps busybox compile_commands.json clean"
	@echo "variables: CPUS=$(CPUS) MEM=$(MEM) ACCEL=$(ACCEL) APPEND='$(APPEND)' GDBPORT=$(GDBPORT) SECONDS=$(SECONDS) SEED=$(SEED) LAB=$(LAB) FROM=$(FROM) JSON=$(JSON) BUSYBOX=$(BUSYBOX) CMD='$(CMD)' ERA=$(ERA) ERAS=$(ERAS)"

FORCE:

.PHONY: FORCE disk all qemu qemu-gdb gdb iso qemu-iso test check test-tools era-2.6.39 bench-eras build-tools fuzz hosttest bench bench-disk bench-linux trace handout grade deps clean help \
	busybox busybox-maybe \
	compile_commands.json
.DELETE_ON_ERROR:

-include $(KOBJS:.o=.d) $(HOSTTESTS:=.d) $(ULIB_OBJS:.o=.d) $(patsubst %,$(BUILD)/%.d,$(UPROG_SRCS) $(UDIR_SRCS))
