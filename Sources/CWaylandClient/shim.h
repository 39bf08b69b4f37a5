#include <wayland-client.h>
/* shm buffers for a surface: memfd_create, mmap */
#include <sys/mman.h>
