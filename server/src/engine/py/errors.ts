/**
 * A Python exception as cloud-init would raise it. The class name decides
 * what cloud-init does next (a `ValueError` in a part is logged with its
 * message and, since 23.3, listed as SCHEMA_ERROR; other exceptions are
 * logged with a traceback), so it is kept beside the message.
 */
export type PyErrorType =
  | 'ValueError'
  | 'ImportError'
  | 'ModuleNotFoundError'
  | 'KeyError'
  | 'TypeError'
  | 'IndexError'
  | 'AttributeError'
  | 'RuntimeError'
  | 'RecursionError'
  | 'UnicodeDecodeError'
  | 'JSONDecodeError'
  | 'binascii.Error'
  | 'AssertionError'
  | 'Exception'
  // Raised by a Jinja template (read_conf lets them through).
  | 'TemplateSyntaxError'
  | 'TemplateAssertionError'
  | 'TemplateRuntimeError'
  | 'FilterArgumentError'
  | 'SecurityError'
  | 'UndefinedError'
  | 'ZeroDivisionError'
  | 'OverflowError'
  | 'UnicodeEncodeError'
  | 'Error';

/** ValueError and the subclasses cloud-init can meet. */
const VALUE_ERRORS = new Set<string>(['ValueError', 'JSONDecodeError', 'UnicodeDecodeError']);

export class PyError extends Error {
  /** Where in the source (e.g. a template) the error was raised, when known. */
  pos?: number;
  constructor(
    readonly pyType: PyErrorType,
    message: string,
  ) {
    super(message);
    this.name = pyType;
  }

  /** True where Python's `except ValueError` would catch it (subclasses included). */
  get isValueError(): boolean {
    return VALUE_ERRORS.has(this.pyType);
  }
}
