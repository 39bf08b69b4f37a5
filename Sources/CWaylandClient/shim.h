#include <wayland-client.h>
/* shm buffers for a surface: memfd_create, mmap */
#include <sys/mman.h>

/* wl_pointer.axis_value120 (wl_seat version 8) exists from libwayland 1.21 on (Ubuntu 22.04's
 * 1.20 lacks it). */
typedef void (*gk_axis_value120_handler)(void *data, struct wl_pointer *pointer, uint32_t axis, int32_t value120);

static inline int gk_pointer_listener_has_value120(void) {
#ifdef WL_POINTER_AXIS_VALUE120_SINCE_VERSION
    return 1;
#else
    return 0;
#endif
}

static inline void gk_pointer_listener_set_value120(struct wl_pointer_listener *listener, gk_axis_value120_handler handler) {
#ifdef WL_POINTER_AXIS_VALUE120_SINCE_VERSION
    listener->axis_value120 = handler;
#else
    (void)listener;
    (void)handler;
#endif
}

/* wl_pointer.axis_relative_direction (wl_seat version 9) exists in libwayland's headers from
 * 1.22 on; Debian 12 has 1.21. These set it where the header has it, and say whether it does,
 * so the seat is bound at 9 only where its handler can be installed. */
typedef void (*gk_axis_relative_direction_handler)(void *data, struct wl_pointer *pointer,
                                                  uint32_t axis, uint32_t direction);

static inline int gk_pointer_listener_has_relative_direction(void) {
#ifdef WL_POINTER_AXIS_RELATIVE_DIRECTION_SINCE_VERSION
    return 1;
#else
    return 0;
#endif
}

static inline void gk_pointer_listener_set_relative_direction(struct wl_pointer_listener *listener,
                                                              gk_axis_relative_direction_handler handler) {
#ifdef WL_POINTER_AXIS_RELATIVE_DIRECTION_SINCE_VERSION
    listener->axis_relative_direction = handler;
#else
    (void)listener;
    (void)handler;
#endif
}
