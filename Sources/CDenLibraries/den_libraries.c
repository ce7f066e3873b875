/* The header is the contract; this file only gives the C target something to compile. */
#include "den_libraries.h"
