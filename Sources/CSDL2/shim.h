/* SDL2 for GestureSDL (SDL's input into the engine) and the PhotoWall example's renderer.
 * The app has its own main. */
#define SDL_MAIN_HANDLED 1
#include <SDL.h>
/* SDL_GetWindowWMInfo: the window's Wayland display, for its touches with their times. */
#include <SDL_syswm.h>
