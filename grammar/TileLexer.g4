// Tokens of the Tile language (a strict subset of Python's lexical grammar). INDENT and DEDENT
// are declared here and produced by the indentation tracker in frontend/parse (a nextToken
// override); the raw NEWLINE below carries the indentation of the next non-blank line.
lexer grammar TileLexer;

tokens { INDENT, DEDENT }

// ---- keywords (the unsupported Python ones are tokens too, for clear diagnostics)
DEF      : 'def' ;
RETURN   : 'return' ;
IF       : 'if' ;
ELIF     : 'elif' ;
ELSE     : 'else' ;
FOR      : 'for' ;
IN       : 'in' ;
WHILE    : 'while' ;
BREAK    : 'break' ;
CONTINUE : 'continue' ;
PASS     : 'pass' ;
CLASS    : 'class' ;
IMPORT   : 'import' ;
FROM     : 'from' ;
AS       : 'as' ;
WITH     : 'with' ;
ASSERT   : 'assert' ;
AND      : 'and' ;
OR       : 'or' ;
NOT      : 'not' ;
IS       : 'is' ;
TRUE     : 'True' ;
FALSE    : 'False' ;
NONE     : 'None' ;
LAMBDA   : 'lambda' ;
TRY      : 'try' ;
EXCEPT   : 'except' ;
FINALLY  : 'finally' ;
RAISE    : 'raise' ;
DEL      : 'del' ;
GLOBAL   : 'global' ;
NONLOCAL : 'nonlocal' ;
YIELD    : 'yield' ;
ASYNC    : 'async' ;
AWAIT    : 'await' ;

NAME : [a-zA-Z_] [a-zA-Z0-9_]* ;

// ---- literals. Numbers that start like one but run on into letters, digits or a second
// dot are BAD_NUMBER (longest match wins), so `1abc` and `0x` are one clear error.
FLOAT_NUMBER
  : DIGIT_PART '.' DIGIT_PART? EXPONENT?
  | '.' DIGIT_PART EXPONENT?
  | DIGIT_PART EXPONENT
  ;
HEX_INTEGER : '0' [xX] ( '_'? [0-9a-fA-F] )+ ;
OCT_INTEGER : '0' [oO] ( '_'? [0-7] )+ ;
BIN_INTEGER : '0' [bB] ( '_'? [01] )+ ;
DEC_INTEGER : [1-9] ( '_'? [0-9] )* | '0'+ ( '_'? '0' )* ;
// `1j`, `2.5e-3J`: host code only.
IMAG_NUMBER
  : ( DIGIT_PART '.' DIGIT_PART? EXPONENT? | '.' DIGIT_PART EXPONENT? | DIGIT_PART EXPONENT? ) [jJ]
  ;
BAD_NUMBER  : [0-9] [0-9a-zA-Z_]* ( '.' [0-9a-zA-Z_]* )* ;

fragment DIGIT_PART : [0-9] ( '_'? [0-9] )* ;
fragment EXPONENT   : [eE] [+-]? DIGIT_PART ;

// Strings: an optional prefix, then short or triple-quoted bodies. The UNTERMINATED_*
// variants match only when no closing quote follows on the line (or in the file).
STRING
  : STRING_PREFIX? ( '\'\'\'' LONG_ITEM*? '\'\'\'' | '"""' LONG_ITEM*? '"""'
                   | '\'' SHORT_SQ* '\'' | '"' SHORT_DQ* '"' )
  ;
// A long string that never closes: its body can hold no triple quote, so it is longer than
// STRING only when no closing triple quote follows.
UNTERMINATED_LONG_STRING
  : STRING_PREFIX? ( '\'\'\'' LONG_SQ_ITEM* '\''? '\''? | '"""' LONG_DQ_ITEM* '"'? '"'? )
  ;
UNTERMINATED_STRING
  : STRING_PREFIX? ( '\'' SHORT_SQ* | '"' SHORT_DQ* )
  ;
fragment STRING_PREFIX : [rRuUfFbB] | [rR] [bBfF] | [bBfF] [rR] ;
fragment SHORT_SQ  : '\\' ~[\r\n] | '\\' LINE_BREAK | ~[\\'\r\n] ;
fragment SHORT_DQ  : '\\' ~[\r\n] | '\\' LINE_BREAK | ~[\\"\r\n] ;
fragment LONG_ITEM : '\\' . | ~'\\' ;
fragment LONG_SQ_ITEM : LONG_SQ_CHAR | '\'' LONG_SQ_CHAR | '\'\'' LONG_SQ_CHAR ;
fragment LONG_SQ_CHAR : '\\' . | ~['\\] ;
fragment LONG_DQ_ITEM : LONG_DQ_CHAR | '"' LONG_DQ_CHAR | '""' LONG_DQ_CHAR ;
fragment LONG_DQ_CHAR : '\\' . | ~["\\] ;
fragment LINE_BREAK : '\r'? '\n' | '\r' ;

// ---- operators and delimiters (brackets are named so the tracker can count depth)
LPAREN : '(' ;
RPAREN : ')' ;
LBRACK : '[' ;
RBRACK : ']' ;
LBRACE : '{' ;
RBRACE : '}' ;
COMMA  : ',' ;
COLON  : ':' ;
SEMI   : ';' ;
DOT    : '.' ;
ELLIPSIS : '...' ;
ARROW  : '->' ;
AT     : '@' ;
WALRUS : ':=' ;

ASSIGN     : '=' ;
ADD_ASSIGN : '+=' ;
SUB_ASSIGN : '-=' ;
MUL_ASSIGN : '*=' ;
DIV_ASSIGN : '/=' ;
IDIV_ASSIGN : '//=' ;
MOD_ASSIGN : '%=' ;
POW_ASSIGN : '**=' ;
AT_ASSIGN  : '@=' ;
AND_ASSIGN : '&=' ;
OR_ASSIGN  : '|=' ;
XOR_ASSIGN : '^=' ;
LSHIFT_ASSIGN : '<<=' ;
RSHIFT_ASSIGN : '>>=' ;

EQ : '==' ;
NE : '!=' ;
LE : '<=' ;
GE : '>=' ;
LT : '<' ;
GT : '>' ;

POW    : '**' ;
IDIV   : '//' ;
LSHIFT : '<<' ;
RSHIFT : '>>' ;
PLUS   : '+' ;
MINUS  : '-' ;
STAR   : '*' ;
SLASH  : '/' ;
PERCENT : '%' ;
AMP    : '&' ;
PIPE   : '|' ;
CARET  : '^' ;
TILDE  : '~' ;

// ---- layout. One NEWLINE eats the blank and comment-only lines after it; the text after
// its last line break is the indentation of the next line.
NEWLINE
  : LINE_BREAK ( [ \t\f]* '#' ~[\r\n]* | [ \t\f]* )
    ( LINE_BREAK ( [ \t\f]* '#' ~[\r\n]* | [ \t\f]* ) )*
  ;
LINE_JOIN : '\\' LINE_BREAK -> skip ;
COMMENT   : '#' ~[\r\n]* -> skip ;
WS        : [ \t\f]+ -> skip ;

// Anything else (including bytes that are not UTF-8) is reported by the parser front end.
ERROR_CHAR : . ;
