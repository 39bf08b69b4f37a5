#define _GNU_SOURCE
#include <sys/mman.h>
#include "CWaylandHelpers.h"
#include "xdg-shell-client-protocol.h"
#include "pointer-gestures-unstable-v1-client-protocol.h"
#include "tablet-unstable-v2-client-protocol.h"
#include "viewporter-client-protocol.h"
#include "fractional-scale-v1-client-protocol.h"
#include "xdg-output-unstable-v1-client-protocol.h"

const struct wl_interface *gesturekit_wl_compositor_interface(void) { return &wl_compositor_interface; }
const struct wl_interface *gesturekit_wl_shm_interface(void) { return &wl_shm_interface; }
const struct wl_interface *gesturekit_wl_seat_interface(void) { return &wl_seat_interface; }
const struct wl_interface *gesturekit_wl_data_device_manager_interface(void) { return &wl_data_device_manager_interface; }
const struct wl_interface *gesturekit_xdg_wm_base_interface(void) { return &xdg_wm_base_interface; }
const struct wl_interface *gesturekit_zwp_pointer_gestures_v1_interface(void) { return &zwp_pointer_gestures_v1_interface; }
const struct wl_interface *gesturekit_zwp_tablet_manager_v2_interface(void) { return &zwp_tablet_manager_v2_interface; }
const struct wl_interface *gesturekit_wl_output_interface(void) { return &wl_output_interface; }
const struct wl_interface *gesturekit_wl_subcompositor_interface(void) { return &wl_subcompositor_interface; }
const struct wl_interface *gesturekit_wp_viewporter_interface(void) { return &wp_viewporter_interface; }
const struct wl_interface *gesturekit_wp_fractional_scale_manager_v1_interface(void) { return &wp_fractional_scale_manager_v1_interface; }
const struct wl_interface *gesturekit_zxdg_output_manager_v1_interface(void) { return &zxdg_output_manager_v1_interface; }
int gesturekit_memfd(const char *name) { return memfd_create(name, MFD_CLOEXEC); }
