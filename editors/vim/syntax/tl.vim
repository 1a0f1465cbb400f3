" Vim syntax file
" Language:    tl (a tensor language: docs/language.md)
" Maintainer:  the tl project
" Filenames:   *.tl
"
" Mirrors tl's lexer (lexer/lexer.re): tests/editors/check_grammars.py checks that every string,
" comment, number and keyword of the .tl files in tests/ and examples/ gets the group tl gives it.

if exists("b:current_syntax")
  finish
endif
let s:cpo_save = &cpo
set cpo&vim

syn keyword tlStatement     fn return global nonlocal del
syn keyword tlConditional   if else
syn keyword tlRepeat        while for break continue
syn keyword tlOperatorWord  and or not in
syn keyword tlException     try catch
syn keyword tlBoolean       true false
syn keyword tlNone          none

" Numbers, as the lexer reads them: 42 0x2a 0b101 1_000 1.5 .5 2. 1e-3 2j 1.5e3j. Later items
" win where two start at one place, so floats come after integers.
syn match tlNumber "\<\d\(_\=\d\)*\>"
syn match tlNumber "\<0[xX]\x\(_\=\x\)*\>"
syn match tlNumber "\<0[bB][01]\(_\=[01]\)*\>"
syn match tlNumber "\<\d\(_\=\d\)*\.\(\d\(_\=\d\)*\)\=\([eE][+-]\=\d\(_\=\d\)*\)\=[jJ]\="
syn match tlNumber "\.\d\(_\=\d\)*\([eE][+-]\=\d\(_\=\d\)*\)\=[jJ]\="
syn match tlNumber "\<\d\(_\=\d\)*[eE][+-]\=\d\(_\=\d\)*[jJ]\="
syn match tlNumber "\<\d\(_\=\d\)*[jJ]\>"

" Comments; a golden test's inline expectations (#> for stdout, #! for stderr) stand out.
syn keyword tlTodo contained TODO FIXME XXX
syn match tlComment "#.*$" contains=tlTodo,@Spell
syn match tlExpect  "#[>!].*$"

" Strings: "..." and '...' with Python's escapes (\n \t \r \\ \" \' \a \b \f \v, \ooo, \xhh,
" \uXXXX, \UXXXXXXXX, a backslash before a newline; any other is an error in tl); they may span lines.
syn match tlEscapeError +\\.+ contained
syn match tlEscape +\\\([ntr\\"'abfv]\|\o\{1,3}\|x\x\{2}\|u\x\{4}\|U\x\{8}\|$\)+ contained
syn region tlString start=+"+ skip=+\\\\\|\\"+ end=+"+ contains=tlEscape,tlEscapeError,@Spell
syn region tlString start=+'+ skip=+\\\\\|\\'+ end=+'+ contains=tlEscape,tlEscapeError,@Spell

" f-strings: f"...", rf"...", fr"..."; a field {expr!c:spec} holds code, its spec may hold fields.
syn region tlFString start=+\<[fF][rR]\="+ start=+\<[rR][fF]"+ skip=+\\\\\|\\"+ end=+"+
      \ contains=tlEscape,tlFBrace,tlFField
syn region tlFString start=+\<[fF][rR]\='+ start=+\<[rR][fF]'+ skip=+\\\\\|\\'+ end=+'+
      \ contains=tlEscape,tlFBrace,tlFField
syn region tlFField matchgroup=tlFDelim start=+{+ end=+}+ contained contains=@tlFieldCode,tlFNest,tlFConv,tlFSpec
syn region tlFNest start=+(+ end=+)+ contained transparent contains=@tlFieldCode,tlFNest
syn region tlFNest start=+\[+ end=+]+ contained transparent contains=@tlFieldCode,tlFNest
syn region tlFNest start=+{+ end=+}+ contained transparent contains=@tlFieldCode,tlFNest
syn match tlFConv "![rsa]\ze[:}]" contained
syn region tlFSpec matchgroup=tlFDelim start=+:+ end=+\ze}+ contained contains=tlFField
" after tlFField: of two items starting at one place the later wins, and {{ is a brace, not a field
syn match tlFBrace "{{\|}}" contained
syn cluster tlFieldCode contains=tlStatement,tlConditional,tlRepeat,tlOperatorWord,tlException,tlBoolean,tlNone,tlNumber,tlString,tlFString

syn sync fromstart

hi def link tlStatement     Statement
hi def link tlConditional   Conditional
hi def link tlRepeat        Repeat
hi def link tlOperatorWord  Operator
hi def link tlException     Exception
hi def link tlBoolean       Boolean
hi def link tlNone          Constant
hi def link tlNumber        Number
hi def link tlComment       Comment
hi def link tlExpect        SpecialComment
hi def link tlTodo          Todo
hi def link tlString        String
hi def link tlFString       String
hi def link tlEscape        SpecialChar
hi def link tlEscapeError   Error
hi def link tlFBrace        SpecialChar
hi def link tlFDelim        Delimiter
hi def link tlFConv         SpecialChar
hi def link tlFSpec         Special

let b:current_syntax = "tl"
let &cpo = s:cpo_save
unlet s:cpo_save
