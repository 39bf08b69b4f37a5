/* SDL3 for GestureSDL3. The app has its own main. */
#define SDL_MAIN_HANDLED 1
#include <SDL3/SDL.h>
