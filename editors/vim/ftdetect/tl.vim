" tl scripts and golden tests (docs/language.md). Vim's own filetype.vim takes *.tl for Teal:
" `set filetype`, unlike `setfiletype`, overrides that choice (this file is sourced after it).
autocmd BufRead,BufNewFile *.tl set filetype=tl
