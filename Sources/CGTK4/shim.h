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

/* ---- The window-level input (GTKWindowInput) and its views bound to widgets ---- */

/* GestureGTK's claiming gesture: a GtkGestureDrag that tracks up to `n_points` sequences
 * (touches, and the mouse's NULL sequence: not touch-only), in the capture phase. It is
 * never "recognized" with fewer touches than `n_points`, so it never stops an event on its
 * own: it exists to hold sequences, so that claiming one cancels it in every gesture of the
 * widgets underneath (gtk_gesture_set_sequence_state). */
static inline void *
gk_claimer_new(guint n_points)
{
    GtkGesture *g = GTK_GESTURE(g_object_new(GTK_TYPE_GESTURE_DRAG, "n-points", n_points, NULL));
    gtk_gesture_single_set_touch_only(GTK_GESTURE_SINGLE(g), FALSE);
    gtk_event_controller_set_propagation_phase(GTK_EVENT_CONTROLLER(g), GTK_PHASE_CAPTURE);
    return g;
}

/* Claims `sequence` in `gesture`: TRUE when the gesture tracks it and it is now claimed. */
static inline gboolean
gk_gesture_try_claim(void *gesture, GdkEventSequence *sequence)
{
    GtkGesture *g = GTK_GESTURE(gesture);
    if (gtk_gesture_get_sequence_state(g, sequence) == GTK_EVENT_SEQUENCE_CLAIMED)
        return TRUE;
    return gtk_gesture_set_sequence_state(g, sequence, GTK_EVENT_SEQUENCE_CLAIMED);
}

static inline GdkEvent *gk_event_ref(GdkEvent *event) { return gdk_event_ref(event); }
static inline void gk_event_unref(GdkEvent *event) { gdk_event_unref(event); }

/* Gives `event` back to GTK: it is dispatched again, from the start (the display's event
 * queue, then the surface's "event" signal, GtkWindow's gtk_main_do_event). GTK 4 has no
 * other public way to deliver an event; gdk_display_put_event is deprecated since 4.10 and
 * works through 4.18. */
static inline void
gk_event_put(GdkEvent *event)
{
    GdkSurface *surface = gdk_event_get_surface(event);
    if (surface == NULL)
        return;
    G_GNUC_BEGIN_IGNORE_DEPRECATIONS
    gdk_display_put_event(gdk_surface_get_display(surface), event);
    G_GNUC_END_IGNORE_DEPRECATIONS
}

static inline void gk_controller_reset(void *controller) { gtk_event_controller_reset(GTK_EVENT_CONTROLLER(controller)); }

/* Cancels `sequence` in every gesture of `widget` and of the widgets inside it (popovers
 * included) that tracks it, but `except`: each is reset (gtk_event_controller_reset), so it is
 * told ::cancel, as a claim of the sequence would have cancelled it. For a claim GTK refused
 * because a widget's gesture had already claimed the sequence (the window's claiming gesture
 * was then denied it): GTK 4 has no call that claims a sequence over a claim. */
static inline void
gk_cancel_sequence_in_tree(void *widget, void *except, GdkEventSequence *sequence)
{
    GtkWidget *w = GTK_WIDGET(widget);
    GListModel *controllers = gtk_widget_observe_controllers(w);
    guint n = g_list_model_get_n_items(controllers);
    for (guint i = 0; i < n; i++) {
        GtkEventController *c = g_list_model_get_item(controllers, i);
        if ((void *)c != except && GTK_IS_GESTURE(c) && gtk_gesture_handles_sequence(GTK_GESTURE(c), sequence))
            gtk_event_controller_reset(c);
        g_object_unref(c);
    }
    g_object_unref(controllers);
    for (GtkWidget *child = gtk_widget_get_first_child(w); child != NULL; child = gtk_widget_get_next_sibling(child))
        gk_cancel_sequence_in_tree(child, except, sequence);
}

/* Events aimed at every native of the window (its popovers too) reach the controller. */
static inline void
gk_controller_set_limit_none(void *controller)
{
    gtk_event_controller_set_propagation_limit(GTK_EVENT_CONTROLLER(controller), GTK_LIMIT_NONE);
}

static inline gboolean gk_is_window(void *object) { return object != NULL && GTK_IS_WINDOW(object); }
static inline void *gk_widget_native(void *widget) { return gtk_widget_get_native(GTK_WIDGET(widget)); }
static inline void *gk_controller_widget(void *controller) { return gtk_event_controller_get_widget(GTK_EVENT_CONTROLLER(controller)); }
static inline void *gk_widget_parent(void *widget) { return gtk_widget_get_parent(GTK_WIDGET(widget)); }
static inline gboolean gk_widget_mapped(void *widget) { return gtk_widget_get_mapped(GTK_WIDGET(widget)); }
static inline gboolean gk_widget_sensitive(void *widget) { return gtk_widget_is_sensitive(GTK_WIDGET(widget)); }
static inline gboolean gk_widget_is_ancestor(void *widget, void *ancestor)
{
    return widget == ancestor || gtk_widget_is_ancestor(GTK_WIDGET(widget), GTK_WIDGET(ancestor));
}
static inline const char *gk_type_name(void *object) { return G_OBJECT_TYPE_NAME(object); }
/* The name an app gave `widget`: its buildable id (GtkBuilder's `id`), else its widget name
 * (`gtk_widget_set_name`, or CSS's `#name`), else its type name (what gtk_widget_get_name
 * returns for a widget with no name). GtkBuilder gives an object with no id one of its own,
 * "___object_N___" (gtkbuilderparser.c, 4.8 to 4.18): that is no name of the app's. */
static inline const char *
gk_widget_id(void *widget)
{
    const char *id = gtk_buildable_get_buildable_id(GTK_BUILDABLE(widget));
    if (id != NULL && id[0] != '\0' && !g_str_has_prefix(id, "___object_"))
        return id;
    return gtk_widget_get_name(GTK_WIDGET(widget));
}

/* Where the surface of `native` is on the surface of `window`'s native, in that surface's
 * coordinates: popovers are popups placed relative to their parent surface. FALSE when
 * `native` is not in `window`. */
static inline gboolean
gk_native_offset_in(GtkNative *native, GtkNative *window, double *x, double *y)
{
    *x = 0; *y = 0;
    GdkSurface *surface = gtk_native_get_surface(native);
    GdkSurface *top = gtk_native_get_surface(window);
    while (surface != NULL && surface != top) {
        if (!GDK_IS_POPUP(surface))
            return FALSE;
        *x += gdk_popup_get_position_x(GDK_POPUP(surface));
        *y += gdk_popup_get_position_y(GDK_POPUP(surface));
        surface = gdk_popup_get_parent(GDK_POPUP(surface));
    }
    return surface == top;
}

/* A point of `surface` (an event's) in `widget`'s coordinates, `widget` being in its
 * window's own native: a point on a popover's surface is placed where the popover is on the
 * window's surface. FALSE when the surface is not in the widget's window. */
static inline gboolean
gk_surface_point_to_widget(void *widget, GdkSurface *surface, double x, double y, double *wx, double *wy)
{
    GtkNative *top = gtk_widget_get_native(GTK_WIDGET(widget));
    if (top == NULL || surface == NULL)
        return FALSE;
    GtkNative *native = gtk_native_get_for_surface(surface);
    if (native == NULL)
        return FALSE;
    /* A widget's own native may be a popover: go to its window's. */
    GtkRoot *root = gtk_widget_get_root(GTK_WIDGET(widget));
    GtkNative *window = root != NULL ? GTK_NATIVE(root) : top;
    double ox = 0, oy = 0, tx = 0, ty = 0;
    if (!gk_native_offset_in(native, window, &ox, &oy))
        return FALSE;
    gtk_native_get_surface_transform(window, &tx, &ty);
    /* x, y on `native`'s surface → on the window's surface → the window widget's. */
    double px = x + ox - tx, py = y + oy - ty;
    if (GTK_WIDGET(window) == GTK_WIDGET(widget)) { *wx = px; *wy = py; return TRUE; }
    G_GNUC_BEGIN_IGNORE_DEPRECATIONS
    gboolean ok = gtk_widget_translate_coordinates(GTK_WIDGET(window), GTK_WIDGET(widget), px, py, wx, wy);
    G_GNUC_END_IGNORE_DEPRECATIONS
    return ok;
}

/* The widget GTK picks at an event's position (gtk_widget_pick on the event's own native,
 * as GTK picks a touch's target), or NULL. */
static inline void *
gk_pick_for_event(GdkEvent *event)
{
    double x = 0, y = 0, sx = 0, sy = 0;
    GdkSurface *surface = gdk_event_get_surface(event);
    if (surface == NULL || !gdk_event_get_position(event, &x, &y))
        return NULL;
    GtkNative *native = gtk_native_get_for_surface(surface);
    if (native == NULL)
        return NULL;
    gtk_native_get_surface_transform(native, &sx, &sy);
    return gtk_widget_pick(GTK_WIDGET(native), x - sx, y - sy, GTK_PICK_DEFAULT);
}

/* The window a surface's widgets belong to (a popover's is its parent's window), or NULL. */
static inline void *
gk_surface_window(GdkSurface *surface)
{
    GtkNative *native = surface != NULL ? gtk_native_get_for_surface(surface) : NULL;
    return native != NULL ? (void *)gtk_widget_get_root(GTK_WIDGET(native)) : NULL;
}

/* `widget`'s bounds in `window`'s coordinates (through the popover it is in, if any):
 * gtk_widget_compute_bounds against its own native, placed where that native's surface is.
 * FALSE when it has no bounds there (not in that window, or not laid out). */
static inline gboolean
gk_widget_bounds_in_window(void *widget, void *window, double *x, double *y, double *w, double *h)
{
    GtkWidget *wd = GTK_WIDGET(widget);
    GtkNative *native = gtk_widget_get_native(wd);
    if (native == NULL || !GTK_IS_NATIVE(window))
        return FALSE;
    graphene_rect_t r;
    if (!gtk_widget_compute_bounds(wd, GTK_WIDGET(native), &r))
        return FALSE;
    double ox = 0, oy = 0, tx = 0, ty = 0, sx = 0, sy = 0;
    if (!gk_native_offset_in(native, GTK_NATIVE(window), &ox, &oy))
        return FALSE;
    gtk_native_get_surface_transform(GTK_NATIVE(window), &tx, &ty);
    gtk_native_get_surface_transform(native, &sx, &sy);
    *x = r.origin.x + sx + ox - tx;
    *y = r.origin.y + sy + oy - ty;
    *w = r.size.width;
    *h = r.size.height;
    return TRUE;
}

/* The gestures among `widget`'s controllers, up to `max` of them, into `out` (not
 * referenced). gtk_widget_observe_controllers is the public way to list them. */
static inline int
gk_widget_gestures(void *widget, void **out, int max)
{
    GListModel *list = gtk_widget_observe_controllers(GTK_WIDGET(widget));
    int n = 0;
    guint count = g_list_model_get_n_items(list);
    for (guint i = 0; i < count && n < max; i++) {
        GObject *item = g_list_model_get_item(list, i);
        if (GTK_IS_GESTURE(item))
            out[n++] = item;
        g_object_unref(item);
    }
    g_object_unref(list);
    return n;
}

/* GtkGesture::sequence-state-changed's handler. */
typedef void (*gk_sequence_state_func)(void *gesture, GdkEventSequence *sequence, GtkEventSequenceState state, void *data);

static inline void *gk_widget_frame_clock(void *widget) { return gtk_widget_get_frame_clock(GTK_WIDGET(widget)); }


/* Context menus (GestureGTK's GTKContextMenuPresenter): a GMenu model built entry by entry, a
 * GSimpleActionGroup of its actions (each named "a<index>", calling `activate` with the
 * presenter), and a GtkPopoverMenu of the model pointing at (x, y) of `parent`, to pop up. */
static inline void *gk_menu_new(void) { return g_menu_new(); }

static inline void
gk_menu_append_action(void *menu, const char *label, const char *detailed_action, const char *icon, gboolean hidden)
{
    GMenuItem *item = g_menu_item_new(label, detailed_action);
    if (icon != NULL) {
        GIcon *gicon = g_themed_icon_new(icon);
        g_menu_item_set_icon(item, gicon);
        g_object_unref(gicon);
    }
    if (hidden) g_menu_item_set_attribute(item, "hidden-when", "s", "action-disabled");
    g_menu_append_item(G_MENU(menu), item);
    g_object_unref(item);
}

static inline void gk_menu_append_submenu(void *menu, const char *label, void *submenu)
{
    g_menu_append_submenu(G_MENU(menu), label, G_MENU_MODEL(submenu));
    g_object_unref(submenu);
}

static inline void gk_menu_append_section(void *menu, const char *label, void *section)
{
    g_menu_append_section(G_MENU(menu), label, G_MENU_MODEL(section));
    g_object_unref(section);
}

static inline void *gk_action_group_new(void) { return g_simple_action_group_new(); }

/* An action of the group: `checked` -1 for a plain one, 0 or 1 for a check item (a boolean
 * state, which GtkPopoverMenu draws as a check mark). */
static inline void
gk_action_group_add(void *group, const char *name, gboolean enabled, int checked, GCallback activate, void *data)
{
    GSimpleAction *action = checked < 0 ? g_simple_action_new(name, NULL)
                                        : g_simple_action_new_stateful(name, NULL, g_variant_new_boolean(checked != 0));
    g_simple_action_set_enabled(action, enabled);
    g_signal_connect_data(action, "activate", activate, data, NULL, (GConnectFlags)0);
    g_action_map_add_action(G_ACTION_MAP(group), G_ACTION(action));
    g_object_unref(action);
}

static inline const char *gk_action_name(void *action) { return g_action_get_name(G_ACTION(action)); }

static inline void *
gk_popover_menu_new(void *model, void *group, const char *prefix, void *parent, int x, int y, gboolean autohide,
                    GCallback closed, void *data)
{
    GtkWidget *popover = gtk_popover_menu_new_from_model(G_MENU_MODEL(model));
    g_object_unref(model);
    gtk_popover_set_autohide(GTK_POPOVER(popover), autohide);
    gtk_widget_insert_action_group(popover, prefix, G_ACTION_GROUP(group));
    g_object_unref(group);
    gtk_widget_set_parent(popover, GTK_WIDGET(parent));
    GdkRectangle r = { x, y, 1, 1 };
    gtk_popover_set_pointing_to(GTK_POPOVER(popover), &r);
    gtk_popover_set_position(GTK_POPOVER(popover), GTK_POS_BOTTOM);
    g_signal_connect_data(popover, "closed", closed, data, NULL, (GConnectFlags)0);
    return popover;
}

static inline void gk_popover_popup(void *popover) { gtk_popover_popup(GTK_POPOVER(popover)); }

static inline void gk_widget_unparent(void *widget) { gtk_widget_unparent(GTK_WIDGET(widget)); }
static inline gboolean gk_popover_visible(void *popover) { return gtk_widget_get_visible(GTK_WIDGET(popover)); }
static inline void *gk_root_focus(void *window) { return gtk_root_get_focus(GTK_ROOT(window)); }

/* ---- GTK's own gestures as recognizers (GTKGestureRecognizer) ---- */

/* The state `gesture` gives `sequence` (NONE for one it does not track). */
static inline GtkEventSequenceState
gk_gesture_sequence_state(void *gesture, GdkEventSequence *sequence)
{
    return gtk_gesture_get_sequence_state(GTK_GESTURE(gesture), sequence);
}

static inline gboolean gk_gesture_handles_sequence(void *gesture, GdkEventSequence *sequence)
{
    return gtk_gesture_handles_sequence(GTK_GESTURE(gesture), sequence);
}

/* Denies `sequence` in `gesture` (and so in every gesture of its group): TRUE when it changed.
 * gtk_gesture_set_sequence_state is deprecated since 4.10 for gtk_gesture_set_state, which
 * sets every sequence of the gesture; GestureGTK denies one touch's and keeps the others'
 * (it works through 4.18). */
static inline gboolean
gk_gesture_deny(void *gesture, GdkEventSequence *sequence)
{
    G_GNUC_BEGIN_IGNORE_DEPRECATIONS
    return gtk_gesture_set_sequence_state(GTK_GESTURE(gesture), sequence, GTK_EVENT_SEQUENCE_DENIED);
    G_GNUC_END_IGNORE_DEPRECATIONS
}

static inline gboolean gk_gesture_is_grouped_with(void *gesture, void *other)
{
    return gesture == other || gtk_gesture_is_grouped_with(GTK_GESTURE(gesture), GTK_GESTURE(other));
}

static inline gboolean gk_is_gesture(void *object) { return object != NULL && GTK_IS_GESTURE(object); }
static inline gboolean gk_is_scrolled_window(void *object) { return object != NULL && GTK_IS_SCROLLED_WINDOW(object); }

/* A GtkScrolledWindow's touch drag: the GtkGestureDrag (exactly that type: its pan is a
 * GtkGesturePan, a subclass) that is touch-only and grouped with its pan, swipe and long
 * press (gtk_scrolled_window_init, 4.8 to 4.18). NULL if it has none. */
static inline void *
gk_scrolled_window_drag(void *scrolled)
{
    GListModel *list = gtk_widget_observe_controllers(GTK_WIDGET(scrolled));
    void *found = NULL;
    guint count = g_list_model_get_n_items(list);
    for (guint i = 0; i < count && found == NULL; i++) {
        GObject *item = g_list_model_get_item(list, i);
        if (G_OBJECT_TYPE(item) == GTK_TYPE_GESTURE_DRAG &&
            gtk_gesture_single_get_touch_only(GTK_GESTURE_SINGLE(item))) {
            GList *group = gtk_gesture_get_group(GTK_GESTURE(item));
            if (g_list_length(group) > 1)
                found = item;
            g_list_free(group);
        }
        g_object_unref(item);
    }
    g_object_unref(list);
    return found;
}

/* Whether `gesture` sees events at all (its propagation phase is not NONE: a scrolled window
 * with kinetic scrolling off sets its drag's to NONE). */
static inline gboolean
gk_controller_is_active(void *controller)
{
    return gtk_event_controller_get_propagation_phase(GTK_EVENT_CONTROLLER(controller)) != GTK_PHASE_NONE;
}

/* GtkGesture's "begin", "update", "end" and "cancel" handlers. */
typedef void (*gk_gesture_sequence_func)(void *gesture, GdkEventSequence *sequence, void *data);

#endif
