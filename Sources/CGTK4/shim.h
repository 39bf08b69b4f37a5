#ifndef GESTUREKIT_CGTK4_SHIM_H
#define GESTUREKIT_CGTK4_SHIM_H
/* GTK 4 for GestureGTK, the one Swift module that touches it. GTK's casts and its
 * g_signal_connect are macros Swift cannot call: these inline functions stand in for the few
 * GestureGTK needs, each taking the object as the untyped pointer GTK's own casts take. */
#include <gtk/gtk.h>
#include <glib-unix.h>

static inline GtkWidget *gk_widget(void *object) { return GTK_WIDGET(object); }

static inline gulong
gk_signal_connect(void *instance, const char *signal, GCallback callback, void *data)
{
    return g_signal_connect_data(instance, signal, callback, data, NULL, (GConnectFlags)0);
}

static inline void
gk_signal_disconnect(void *instance, gulong handler)
{
    if (handler != 0 && g_signal_handler_is_connected(instance, handler))
        g_signal_handler_disconnect(instance, handler);
}

static inline void
gk_widget_add_controller(void *widget, void *controller)
{
    gtk_widget_add_controller(GTK_WIDGET(widget), GTK_EVENT_CONTROLLER(controller));
}

static inline void
gk_widget_remove_controller(void *widget, void *controller)
{
    gtk_widget_remove_controller(GTK_WIDGET(widget), GTK_EVENT_CONTROLLER(controller));
}

static inline void
gk_controller_set_capture(void *controller)
{
    gtk_event_controller_set_propagation_phase(GTK_EVENT_CONTROLLER(controller), GTK_PHASE_CAPTURE);
}

static inline void
gk_gesture_claim(void *gesture, GdkEventSequence *sequence)
{
    gtk_gesture_set_sequence_state(GTK_GESTURE(gesture), sequence, GTK_EVENT_SEQUENCE_CLAIMED);
}

static inline gboolean
gk_gesture_handles(void *gesture, GdkEventSequence *sequence)
{
    return gtk_gesture_handles_sequence(GTK_GESTURE(gesture), sequence);
}

/* A point of the widget's surface (an event's position) in the widget's own coordinates. */
static inline gboolean
gk_surface_to_widget(void *widget, double x, double y, double *wx, double *wy)
{
    GtkNative *native = gtk_widget_get_native(GTK_WIDGET(widget));
    if (native == NULL)
        return FALSE;
    double sx = 0, sy = 0;
    gtk_native_get_surface_transform(native, &sx, &sy);
    G_GNUC_BEGIN_IGNORE_DEPRECATIONS
    return gtk_widget_translate_coordinates(GTK_WIDGET(native), GTK_WIDGET(widget), x - sx, y - sy, wx, wy);
    G_GNUC_END_IGNORE_DEPRECATIONS
}

/* Whether `event` happened on the surface of `widget`'s own native (not on a popover or
 * another surface whose widgets have `widget` as an ancestor). */
static inline gboolean
gk_event_on_widget_surface(void *widget, GdkEvent *event)
{
    GtkNative *native = gtk_widget_get_native(GTK_WIDGET(widget));
    return native != NULL && gdk_event_get_surface(event) == gtk_native_get_surface(native);
}

static inline double gk_time_coord_x(const GdkTimeCoord *c) { return c->axes[GDK_AXIS_X]; }
static inline double gk_time_coord_y(const GdkTimeCoord *c) { return c->axes[GDK_AXIS_Y]; }
static inline gboolean gk_time_coord_has_xy(const GdkTimeCoord *c)
{
    return (c->flags & (GDK_AXIS_FLAG_X | GDK_AXIS_FLAG_Y)) == (GDK_AXIS_FLAG_X | GDK_AXIS_FLAG_Y);
}

/* The widget's root (its window), or NULL before it is in one. */
static inline void *gk_widget_root(void *widget) { return gtk_widget_get_root(GTK_WIDGET(widget)); }

/* `widget` as drawn now, rendered by its window's renderer and written to `path` as PNG;
 * FALSE when it cannot be (not shown yet, nothing drawn, the file not written). */
static inline gboolean
gk_widget_save_png(void *widget, const char *path)
{
    GtkWidget *w = GTK_WIDGET(widget);
    GtkNative *native = gtk_widget_get_native(w);
    int width = gtk_widget_get_width(w), height = gtk_widget_get_height(w);
    if (native == NULL || width <= 0 || height <= 0)
        return FALSE;
    GdkPaintable *paintable = gtk_widget_paintable_new(w);
    GtkSnapshot *snapshot = gtk_snapshot_new();
    gdk_paintable_snapshot(paintable, GDK_SNAPSHOT(snapshot), width, height);
    GskRenderNode *node = gtk_snapshot_free_to_node(snapshot);
    gboolean saved = FALSE;
    if (node != NULL) {
        GdkTexture *texture = gsk_renderer_render_texture(gtk_native_get_renderer(native), node, NULL);
        if (texture != NULL) {
            saved = gdk_texture_save_to_png(texture, path);
            g_object_unref(texture);
        }
        gsk_render_node_unref(node);
    }
    g_object_unref(paintable);
    return saved;
}

static inline GtkWindow *gk_window(void *object) { return GTK_WINDOW(object); }

/* A window titled `title` of `width` × `height` whose one child is `child` (asked for that
 * size, so the child gets it where the compositor gives the window its default size). */
static inline void
gk_window_setup(void *window, const char *title, int width, int height, void *child)
{
    gtk_window_set_title(GTK_WINDOW(window), title);
    gtk_window_set_default_size(GTK_WINDOW(window), width, height);
    if (GTK_IS_DRAWING_AREA(child)) {
        gtk_drawing_area_set_content_width(GTK_DRAWING_AREA(child), width);
        gtk_drawing_area_set_content_height(GTK_DRAWING_AREA(child), height);
    }
    gtk_window_set_child(GTK_WINDOW(window), GTK_WIDGET(child));
}

typedef void (*gk_draw_func)(void *area, cairo_t *cairo, int width, int height, void *data);

static inline void
gk_drawing_area_set_draw(void *area, gk_draw_func draw, void *data)
{
    gtk_drawing_area_set_draw_func(GTK_DRAWING_AREA(area), (GtkDrawingAreaDrawFunc)draw, data, NULL);
}

static inline void gk_button_set_flat(void *button) { gtk_button_set_has_frame(GTK_BUTTON(button), FALSE); }
static inline void gk_box_append(void *box, void *child) { gtk_box_append(GTK_BOX(box), GTK_WIDGET(child)); }
static inline void gk_object_set_data(void *object, const char *key, void *data) { g_object_set_data(G_OBJECT(object), key, data); }
static inline void *gk_object_get_data(void *object, const char *key) { return g_object_get_data(G_OBJECT(object), key); }

/* A popover holding `child`, pointing at (x, y) of `parent`, shown; it is unparented (and so
 * freed) when it closes. */
static void gk_popover_closed(GtkPopover *popover, gpointer data) { (void)data; gtk_widget_unparent(GTK_WIDGET(popover)); }

static inline void
gk_popover_show(void *popover, void *child, void *parent, int x, int y)
{
    gtk_popover_set_child(GTK_POPOVER(popover), GTK_WIDGET(child));
    gtk_widget_set_parent(GTK_WIDGET(popover), GTK_WIDGET(parent));
    GdkRectangle r = { x, y, 1, 1 };
    gtk_popover_set_pointing_to(GTK_POPOVER(popover), &r);
    g_signal_connect_data(popover, "closed", G_CALLBACK(gk_popover_closed), NULL, NULL, (GConnectFlags)0);
    gtk_popover_popup(GTK_POPOVER(popover));
}

static inline void gk_popover_close(void *popover) { gtk_popover_popdown(GTK_POPOVER(popover)); }

static inline void gk_gesture_single_touch_only(void *gesture, gboolean only) { gtk_gesture_single_set_touch_only(GTK_GESTURE_SINGLE(gesture), only); }

static inline void gk_gesture_claim_all(void *gesture) { gtk_gesture_set_state(GTK_GESTURE(gesture), GTK_EVENT_SEQUENCE_CLAIMED); }

static inline void gk_object_unref(void *object) { g_object_unref(object); }
static inline void *gk_object_ref(void *object) { return g_object_ref(object); }

#endif
