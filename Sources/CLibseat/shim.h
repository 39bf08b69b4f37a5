#include <libseat.h>
#include <linux/input.h>
#include <sys/ioctl.h>

/* EVIOCGRAB is a macro Swift cannot import: grab (1) or release (0) an evdev device. */
static inline int gesturekit_evdev_grab(int fd, int grab) { return ioctl(fd, EVIOCGRAB, (void *)(long)grab); }
