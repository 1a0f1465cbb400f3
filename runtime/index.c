/* index.c — placeholder, filled in by its owner */
