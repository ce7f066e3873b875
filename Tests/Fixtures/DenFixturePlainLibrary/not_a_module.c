/* An ordinary shared library that knows nothing of Den (no den_* symbols at all). */
int not_a_module_answer(void) { return 42; }
