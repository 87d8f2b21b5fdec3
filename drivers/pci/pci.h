/*
 * PCI configuration space, by the PC's configuration mechanism #1 (ports
 * 0xCF8/0xCFC), and a walk of bus 0 for a device of one class. Only what the
 * IDE driver's bus-master DMA needs (drivers/block/ide_dma.c): no bridges,
 * no BAR sizing or assignment (the firmware, SeaBIOS under QEMU, has
 * assigned them before smpix starts).
 */
#ifndef DRIVERS_PCI_PCI_H
#define DRIVERS_PCI_PCI_H

#include "kernel/types.h"

/* A function's address: bus 0..255, device 0..31, function 0..7. */
struct pci_dev {
	uint8_t bus, dev, fn;
	uint16_t vendor, device;
};

#define PCI_VENDOR_ID   0x00
#define PCI_COMMAND     0x04
#define PCI_CLASS_PROG  0x09    /* programming interface; 0x0A subclass, 0x0B class */
#define PCI_BAR0        0x10

#define PCI_COMMAND_IO     0x1
#define PCI_COMMAND_MASTER 0x4  /* the device may start DMA itself (bus mastering) */

uint32_t pci_read32(const struct pci_dev *d, uint8_t off);
uint16_t pci_read16(const struct pci_dev *d, uint8_t off);
uint8_t pci_read8(const struct pci_dev *d, uint8_t off);
void pci_write16(const struct pci_dev *d, uint8_t off, uint16_t v);

/* The first function on bus 0 of class/subclass (e.g. 0x01/0x01, an IDE controller): true if found. */
bool pci_find_class(uint8_t class, uint8_t subclass, struct pci_dev *out);

#endif
