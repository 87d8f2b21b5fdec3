/*
 * PCI configuration space through mechanism #1: write the function's address
 * and the register's (dword-aligned) offset to 0xCF8, then read or write the
 * dword at 0xCFC (its bytes at 0xCFC..0xCFF). The two steps must not
 * interleave with another CPU's, hence pci_lock.
 */
#include "drivers/pci/pci.h"

#include "kernel/locking/spinlock.h"
#include "kernel/x86/x86.h"

#define PCI_CONFIG_ADDRESS 0xCF8
#define PCI_CONFIG_DATA    0xCFC

static spinlock_t pci_lock = SPINLOCK_INIT("pci_lock");

static uint32_t pci_address(const struct pci_dev *d, uint8_t off)
{
	return 0x80000000u | (uint32_t)d->bus << 16 | (uint32_t)d->dev << 11 | (uint32_t)d->fn << 8 | (off & 0xFC);
}

uint32_t pci_read32(const struct pci_dev *d, uint8_t off)
{
	uint32_t flags, v;

	spin_lock_irqsave(&pci_lock, flags);
	outl(PCI_CONFIG_ADDRESS, pci_address(d, off));
	v = inl(PCI_CONFIG_DATA);
	spin_unlock_irqrestore(&pci_lock, flags);
	return v;
}

uint16_t pci_read16(const struct pci_dev *d, uint8_t off)
{
	return (uint16_t)(pci_read32(d, off) >> ((off & 2) * 8));
}

uint8_t pci_read8(const struct pci_dev *d, uint8_t off)
{
	return (uint8_t)(pci_read32(d, off) >> ((off & 3) * 8));
}

void pci_write16(const struct pci_dev *d, uint8_t off, uint16_t v)
{
	uint32_t flags;

	spin_lock_irqsave(&pci_lock, flags);
	outl(PCI_CONFIG_ADDRESS, pci_address(d, off));
	outw(PCI_CONFIG_DATA + (off & 2), v);
	spin_unlock_irqrestore(&pci_lock, flags);
}

bool pci_find_class(uint8_t class, uint8_t subclass, struct pci_dev *out)
{
	for (uint8_t dev = 0; dev < 32; dev++) {
		for (uint8_t fn = 0; fn < 8; fn++) {
			struct pci_dev d = { .bus = 0, .dev = dev, .fn = fn };
			uint32_t id = pci_read32(&d, PCI_VENDOR_ID);

			if ((id & 0xFFFF) == 0xFFFF) {
				if (fn == 0)
					break;          /* no device here at all */
				continue;
			}
			if (pci_read8(&d, 0x0B) == class && pci_read8(&d, 0x0A) == subclass) {
				d.vendor = (uint16_t)id;
				d.device = (uint16_t)(id >> 16);
				*out = d;
				return true;
			}
			if (fn == 0 && !(pci_read8(&d, 0x0E) & 0x80))
				break;                  /* header type: not multi-function */
		}
	}
	return false;
}
