/* The two 8259 PICs of the PC: we only switch them off, in favour of the APICs. */
#ifndef KERNEL_X86_PIC_H
#define KERNEL_X86_PIC_H

/* Remap them away from the exception vectors, then mask every line. */
void pic_disable(void);

#endif
