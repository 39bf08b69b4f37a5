/* SDL2 for PhotoWallRender (the only module that uses it). The app has its own main. */
#define SDL_MAIN_HANDLED 1
#include <SDL.h>
