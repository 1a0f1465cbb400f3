" vim_categories.vim — what tl's Vim syntax file makes of each byte of some .tl files.
" Run headless: TL_VIM_RTP=editors/vim TL_VIM_LIST=LIST TL_VIM_OUT=DIR vim -u NONE -i NONE -N -n -es -S vim_categories.vim
" LIST names one file a line; DIR/N gets the Nth file's lines as category letters (those of
" tests/editors/tl_tokens.c: s string, c comment, n number, k keyword, o other code, . no opinion),
" or "filetype X" when ftdetect did not make the file a tl file.
set nocompatible encoding=latin1 fileencodings=latin1 fileformats=unix nomore noswapfile
let &runtimepath = $TL_VIM_RTP . ',' . &runtimepath
filetype on
syntax on

" The category of the byte at (line, col): the innermost syntax group that says one.
function! s:Category(line, col) abort
  for l:id in reverse(synstack(a:line, a:col))
    let l:name = synIDattr(l:id, 'name')
    if l:name ==# 'tlNumber'
      return 'n'
    elseif l:name =~# '^tl\(Comment\|Expect\|Todo\)$'
      return 'c'
    elseif l:name =~# '^tlF\(Delim\|Conv\|Spec\)$'
      return '.'
    elseif l:name ==# 'tlFField'
      return 'o'
    elseif l:name =~# '^tl\(String\|FString\|Escape\|EscapeError\|FBrace\)$'
      return 's'
    elseif l:name =~# '^tl\(Statement\|Conditional\|Repeat\|OperatorWord\|Exception\|Boolean\|None\)$'
      return 'k'
    endif
  endfor
  return 'o'
endfunction

let s:n = 0
for s:file in readfile($TL_VIM_LIST)
  execute 'silent edit! ++enc=latin1 ++ff=unix ' . fnameescape(s:file)
  if &filetype !=# 'tl'
    call writefile(['filetype ' . &filetype], $TL_VIM_OUT . '/' . s:n)
  else
    let s:lines = []
    for s:l in range(1, line('$'))
      call add(s:lines, join(map(range(1, strlen(getline(s:l))), 's:Category(s:l, v:val)'), ''))
    endfor
    call writefile(s:lines, $TL_VIM_OUT . '/' . s:n)
  endif
  let s:n += 1
  silent bwipeout!
endfor
qall!
