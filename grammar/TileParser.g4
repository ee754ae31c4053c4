// Syntax of the Tile language and its host subset: a strict subset of Python 3. The front end
// (frontend/parse) calls `stmt` once per statement so that it can resynchronise after an
// error; restrictions that need context (targets, decorators, argument order) are checked there.
parser grammar TileParser;

options { tokenVocab = TileLexer; }

file_input : ( NEWLINE | stmt )* EOF ;

stmt : simple_stmts | compound_stmt ;

simple_stmts : small_stmt ( SEMI small_stmt )* SEMI? NEWLINE ;

small_stmt
  : expr_stmt                                   # ExprSmall
  | PASS                                        # PassSmall
  | BREAK                                       # BreakSmall
  | CONTINUE                                    # ContinueSmall
  | RETURN testlist?                            # ReturnSmall
  | IMPORT dotted_as_name ( COMMA dotted_as_name )*                      # ImportSmall
  | FROM dotted_name IMPORT ( STAR
                            | import_as_names
                            | LPAREN import_as_names RPAREN )            # FromImportSmall
  | ASSERT test ( COMMA test )?                 # AssertSmall
  | RAISE ( test ( FROM test )? )?              # RaiseSmall
  | DEL exprlist                                # DelSmall
  | ( GLOBAL | NONLOCAL ) NAME ( COMMA NAME )*  # GlobalSmall
  | YIELD ( FROM test | testlist )?             # YieldSmall
  ;

// `a = b = value`, `x: T = v`, `x += v`, or a bare expression; `first, *rest = v` (host).
expr_stmt : star_testlist expr_tail ;
expr_tail
  : COLON test ( ASSIGN testlist )?     # AnnTail
  | augassign testlist                  # AugTail
  | ( ASSIGN star_testlist )*           # AssignTail
  ;

augassign
  : ADD_ASSIGN | SUB_ASSIGN | MUL_ASSIGN | DIV_ASSIGN | IDIV_ASSIGN | MOD_ASSIGN | POW_ASSIGN
  | AT_ASSIGN | AND_ASSIGN | OR_ASSIGN | XOR_ASSIGN | LSHIFT_ASSIGN | RSHIFT_ASSIGN
  ;

dotted_as_name : dotted_name ( AS NAME )? ;
import_as_names : import_as_name ( COMMA import_as_name )* COMMA? ;
import_as_name : NAME ( AS NAME )? ;
dotted_name : NAME ( DOT NAME )* ;

compound_stmt
  : if_stmt | while_stmt | for_stmt | with_stmt | try_stmt | funcdef | classdef | decorated
  | ASYNC funcdef ;

if_stmt : IF namedexpr_test COLON block elif_clause* else_clause? ;
elif_clause : ELIF namedexpr_test COLON block ;
else_clause : ELSE COLON block ;
while_stmt : WHILE namedexpr_test COLON block else_clause? ;
// `name := value` (host code only): as a condition, or in parentheses anywhere.
namedexpr_test : ( NAME WALRUS )? test ;
for_stmt : FOR exprlist IN testlist COLON block else_clause? ;
with_stmt
  : WITH with_item ( COMMA with_item )* COLON block
  | WITH LPAREN with_item ( COMMA with_item )* COMMA? RPAREN COLON block
  ;
with_item : test ( AS expr )? ;
try_stmt : TRY COLON block ( except_clause+ else_clause? finally_clause? | finally_clause ) ;
except_clause : EXCEPT ( test ( AS NAME )? )? COLON block ;
finally_clause : FINALLY COLON block ;

decorated : decorator+ ( funcdef | classdef ) ;
decorator : AT test NEWLINE ;

funcdef : DEF NAME parameters ( ARROW test )? COLON block ;
parameters : LPAREN ( param ( COMMA param )* COMMA? )? RPAREN ;
// `*args`, a bare `*` (the parameters after it are keyword-only) and `**kwargs` (host code).
param : ( STAR | POW )? NAME ( COLON test )? ( ASSIGN test )? | STAR ;
classdef : CLASS NAME ( LPAREN arglist? RPAREN )? COLON block ;

block
  : simple_stmts                       # InlineBlock
  | NEWLINE INDENT stmt+ DEDENT        # IndentedBlock
  ;

// ---- expressions, lowest precedence first
test : or_test ( IF or_test ELSE test )? | lambdef ;
lambdef : LAMBDA ( lambda_param ( COMMA lambda_param )* COMMA? )? COLON test ;
lambda_param : ( STAR | POW )? NAME ( ASSIGN test )? ;
or_test : and_test ( OR and_test )* ;
and_test : not_test ( AND not_test )* ;
not_test : NOT not_test | comparison ;
comparison : expr ( comp_op expr )* ;
comp_op : LT | GT | EQ | GE | LE | NE | IN | NOT IN | IS | IS NOT ;
expr : xor_expr ( PIPE xor_expr )* ;
xor_expr : and_expr ( CARET and_expr )* ;
and_expr : shift_expr ( AMP shift_expr )* ;
shift_expr : arith_expr ( ( LSHIFT | RSHIFT ) arith_expr )* ;
arith_expr : term ( ( PLUS | MINUS ) term )* ;
term : factor ( ( STAR | SLASH | PERCENT | IDIV | AT ) factor )* ;
factor : ( PLUS | MINUS | TILDE ) factor | power ;
power : atom_expr ( POW factor )? ;
atom_expr : atom trailer* ;

trailer
  : LPAREN arglist? RPAREN             # CallTrailer
  | LBRACK subscriptlist RBRACK        # IndexTrailer
  | DOT NAME                           # AttrTrailer
  ;

atom
  : LPAREN NAME WALRUS test RPAREN     # WalrusAtom
  | LPAREN testlist_comp? RPAREN       # ParenAtom
  | LBRACK testlist_comp? RBRACK       # ListAtom
  | LBRACE dictorsetmaker? RBRACE      # DictAtom
  | NAME                               # NameAtom
  | number                             # NumberAtom
  | STRING+                            # StringAtom
  | NONE                               # NoneAtom
  | TRUE                               # TrueAtom
  | FALSE                              # FalseAtom
  | ELLIPSIS                           # EllipsisAtom
  ;

number : DEC_INTEGER | HEX_INTEGER | OCT_INTEGER | BIN_INTEGER | FLOAT_NUMBER | IMAG_NUMBER ;

// Left-factored after the first element, so that prediction never scans a whole element
// (nested brackets would otherwise cost exponential time).
testlist_comp : star_test ( comp_for | ( COMMA star_test )* COMMA? ) ;
// `*xs` inside a tuple or list display (host code only).
star_test : STAR test | test ;
dictorsetmaker
  : test ( COLON test ( comp_for | ( COMMA test COLON test )* COMMA? )
         | comp_for
         | ( COMMA test )* COMMA? ) ;
// Comprehension clauses (host code only): `for` targets, then `for`/`if` clauses in order.
comp_for : FOR exprlist IN or_test comp_iter? ;
comp_iter : comp_for | IF or_test comp_iter? ;
subscriptlist : subscript ( COMMA subscript )* COMMA? ;
subscript
  : test? COLON test? ( COLON test? )?  # SliceSub
  | test                               # IndexSub
  ;
exprlist : star_expr ( COMMA star_expr )* COMMA? ;
// `for first, *rest in rows` (host code only).
star_expr : STAR expr | expr ;
testlist : test ( COMMA test )* COMMA? ;
star_testlist : star_test ( COMMA star_test )* COMMA? ;
arglist : argument ( COMMA argument )* COMMA? ;
argument
  : NAME ASSIGN test                   # KeywordArg
  | POW test                           # KwUnpackArg
  | STAR test                          # StarArg
  | test comp_for?                     # PositionalArg
  ;
