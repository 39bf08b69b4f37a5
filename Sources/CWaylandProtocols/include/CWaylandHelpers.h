/* Small helpers for Swift: the addresses of libwayland-client's interface descriptions (C
 * constants Swift sees as values), and memfd_create (a GNU extension in glibc's headers). */
#include <wayland-client.h>

const struct wl_interface *gesturekit_wl_compositor_interface(void);
const struct wl_interface *gesturekit_wl_shm_interface(void);
const struct wl_interface *gesturekit_wl_seat_interface(void);
const struct wl_interface *gesturekit_wl_data_device_manager_interface(void);
const struct wl_interface *gesturekit_xdg_wm_base_interface(void);
const struct wl_interface *gesturekit_zwp_pointer_gestures_v1_interface(void);
const struct wl_interface *gesturekit_zwp_tablet_manager_v2_interface(void);
const struct wl_interface *gesturekit_wl_output_interface(void);
const struct wl_interface *gesturekit_wl_subcompositor_interface(void);
const struct wl_interface *gesturekit_wp_viewporter_interface(void);
const struct wl_interface *gesturekit_wp_fractional_scale_manager_v1_interface(void);
const struct wl_interface *gesturekit_zxdg_output_manager_v1_interface(void);
/* An anonymous shared-memory file, close-on-exec; -1 with errno on failure. */
int gesturekit_memfd(const char *name);
