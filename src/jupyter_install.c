/* jupyter_install.c — tl --install-kernel: the kernel spec (kernel.json and logos) where Jupyter looks for kernels */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "draw.h"
#include "jupyter_int.h"

/* Where `jupyter kernelspec install` puts a kernel for everyone (jupyter_core's first system path). */
#define SYSTEM_KERNELS "/usr/local/share/jupyter/kernels"

static const char install_usage[] = "usage: tl --install-kernel [--user | --prefix DIR]\n";

/* Creates a folder and its parents; false with errno set. */
static bool make_dirs(char *path)
{
    for (char *p = path + 1; *p; p++) {
        if (*p != '/') continue;
        *p = 0;
        bool ok = mkdir(path, 0755) == 0 || errno == EEXIST;
        *p = '/';
        if (!ok) return false;
    }
    return mkdir(path, 0755) == 0 || errno == EEXIST;
}

/* The folder the spec goes in: the user's Jupyter data folder (--user, as jupyter_core finds it:
   JUPYTER_DATA_DIR, else XDG_DATA_HOME/jupyter, else ~/.local/share/jupyter), PREFIX/share/jupyter
   (--prefix), else the system's. false when the words or the environment do not say. */
static bool spec_dir(int argc, char **argv, char *out, size_t n)
{
    const char *data = getenv("JUPYTER_DATA_DIR"), *xdg = getenv("XDG_DATA_HOME"), *home = getenv("HOME");
    int w;
    if (argc == 0) w = snprintf(out, n, "%s/tl", SYSTEM_KERNELS);
    else if (argc == 1 && strcmp(argv[0], "--user") == 0 && data && *data) w = snprintf(out, n, "%s/kernels/tl", data);
    else if (argc == 1 && strcmp(argv[0], "--user") == 0 && xdg && *xdg) w = snprintf(out, n, "%s/jupyter/kernels/tl", xdg);
    else if (argc == 1 && strcmp(argv[0], "--user") == 0 && home && *home) w = snprintf(out, n, "%s/.local/share/jupyter/kernels/tl", home);
    else if (argc == 2 && strcmp(argv[0], "--prefix") == 0 && *argv[1]) w = snprintf(out, n, "%s/share/jupyter/kernels/tl", argv[1]);
    else {
        fputs(argc == 1 && strcmp(argv[0], "--user") == 0 ? "tl: --user needs HOME (or JUPYTER_DATA_DIR) to be set\n" : install_usage, stderr);
        return false;
    }
    return w > 0 && (size_t)w < n;
}

/* kernel.json: how Jupyter starts the kernel (this tl, by its absolute path) and what it is. */
static bool write_spec(const char *dir, const char *exe)
{
    StrBuf b = { 0 };
    bool ok = jj_lit(&b, "{\n  \"argv\": [") && jj_cstr(&b, exe) &&
              sb_printf(&b, ", \"--jupyter\", \"{connection_file}\"],\n  \"display_name\": \"tl\",\n  \"language\": \"tl\",\n"
                            "  \"interrupt_mode\": \"signal\",\n  \"metadata\": {}\n}\n");
    char path[PATH_MAX + 32];
    snprintf(path, sizeof path, "%s/kernel.json", dir);
    FILE *f = ok ? fopen(path, "w") : NULL;
    ok = f && fwrite(b.data, 1, b.len, f) == b.len;
    if (f && fclose(f) != 0) ok = false;
    if (!ok) fprintf(stderr, "tl: cannot write %s: %s\n", path, strerror(errno));
    sb_free(&b);
    return ok;
}

/* The logos Jupyter shows beside the kernel's name (cairo draws them; without it there are none). */
static bool write_logos(const char *dir)
{
    static const struct { const char *name; int size; bool svg; } logos[] = {
        { "logo-32x32.png", 32, false }, { "logo-64x64.png", 64, false }, { "logo-svg.svg", 64, true },
    };
    if (!draw_have_images()) return true;
    for (size_t i = 0; i < sizeof logos / sizeof *logos; i++) {
        char path[PATH_MAX + 32];
        snprintf(path, sizeof path, "%s/%s", dir, logos[i].name);
        FILE *f = fopen(path, "wb");
        int rc = f ? draw_logo(f, logos[i].size, logos[i].svg) : -1;
        if (f && fclose(f) != 0) rc = -1;
        if (rc < 0) {
            fprintf(stderr, "tl: cannot write %s: %s\n", path, f ? tl_errmsg() : strerror(errno));
            return false;
        }
    }
    return true;
}

int jupyter_install_main(int argc, char **argv)
{
    char dir[PATH_MAX], exe[PATH_MAX];
    if (!spec_dir(argc, argv, dir, sizeof dir)) return 2;
    if (!realpath("/proc/self/exe", exe)) {
        fprintf(stderr, "tl: cannot tell where this tl is: %s\n", strerror(errno));
        return 1;
    }
    if (!make_dirs(dir)) {
        fprintf(stderr, "tl: cannot make %s: %s\n", dir, strerror(errno));
        return 1;
    }
    if (!write_spec(dir, exe) || !write_logos(dir)) return 1;
    printf("installed the tl kernel in %s\n", dir);
    return 0;
}
