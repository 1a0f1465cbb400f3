/* kernels/elementwise.c — placeholder, filled in by its owner */
