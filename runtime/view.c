/* view.c — placeholder, filled in by its owner */
