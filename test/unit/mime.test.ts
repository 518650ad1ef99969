// MIME user-data as cloud-init 22.4.2 sees it (CPython 3.11 email package, compat32).
// Every expectation below was produced by running the same input through cloud-init's
// own convert_string / walk / is_skippable / fully_decoded_payload / get_filename /
// dict(part) / decomp_gzip under /usr/bin/python3 (3.11.7); no Python is needed here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import * as zlib from 'node:zlib';
import type * as MimeModule from '../../server/src/engine/userdata/mime';
import type * as BinasciiModule from '../../server/src/engine/py/binascii';

// Compiled server module, from out/test/unit/ to server/out/.
const mime = require(join(__dirname, '..', '..', '..', 'server', 'out', 'engine', 'userdata', 'mime')) as typeof MimeModule;
const binascii = require(join(__dirname, '..', '..', '..', 'server', 'out', 'engine', 'py', 'binascii')) as typeof BinasciiModule;

const enc = (s: string): Uint8Array => new Uint8Array(Buffer.from(s, 'utf8'));
const b64 = (s: string): Uint8Array => new Uint8Array(Buffer.from(s, 'base64'));
const latin1 = (b: Uint8Array): string => Buffer.from(b).toString('latin1');

interface ExpectedLeaf {
  ctype: string;
  filename?: string;
  filenameError?: string;
  headers?: [string, string][];
  /** dict(part) entries; omitted when equal to `headers`. */
  dict?: [string, string][];
  defects?: string[];
  /** get_payload(decode=True) as a latin-1 string; null for message/* containers. */
  payload: string | null;
  /** fully_decoded_payload(); omitted when equal to the (ASCII) payload. */
  text?: string | null;
}

interface Expected {
  kind: 'mime' | 'not-multipart';
  gzipped: boolean;
  error?: [string, string];
  leaves?: ExpectedLeaf[];
  containers?: { ctype: string; defects: string[]; isMultipart: boolean }[];
}

const CASES: { name: string; input: string | Uint8Array; expected: Expected }[] = [
  {
    name: "not MIME: one text/x-not-multipart part",
    input: "#cloud-config\nruncmd: [ls]\n",
    expected: {"kind": "not-multipart", "gzipped": false, "leaves": [{"ctype": "text/x-not-multipart", "headers": [["Content-Type", "text/x-not-multipart"], ["MIME-Version", "1.0"]], "payload": "#cloud-config\nruncmd: [ls]\n"}], "containers": []},
  },
  {
    name: "not MIME and not UTF-8: surrogateescape text",
    input: b64("IyEvYmluL3NoCmVjaG8g6Qo="),
    expected: {"kind": "not-multipart", "gzipped": false, "leaves": [{"ctype": "text/x-not-multipart", "headers": [["Content-Type", "text/x-not-multipart"], ["MIME-Version", "1.0"]], "payload": "#!/bin/sh\necho \u00e9\n", "text": "#!/bin/sh\necho \udce9\n"}], "containers": []},
  },
  {
    name: "empty blob",
    input: "",
    expected: {"kind": "not-multipart", "gzipped": false, "leaves": [{"ctype": "text/x-not-multipart", "headers": [["Content-Type", "text/x-not-multipart"], ["MIME-Version", "1.0"]], "payload": ""}], "containers": []},
  },
  {
    name: "mime-version: anywhere in the first 4096 bytes, any case",
    input: "Content-Type: text/x-shellscript\nmIMe-VeRsIoN: 1.0\n\n#!/bin/sh\n",
    expected: {"kind": "mime", "gzipped": false, "leaves": [{"ctype": "text/x-shellscript", "headers": [["Content-Type", "text/x-shellscript"], ["mIMe-VeRsIoN", "1.0"]], "payload": "#!/bin/sh\n"}], "containers": []},
  },
  {
    name: "multipart, LF: the line break before a boundary belongs to the boundary",
    input: "MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary=\"===X==\"\n\npreamble\n--===X==\nContent-Type: text/cloud-config\nMerge-Type: list(append)+dict(recurse_array)+str()\n\n#cloud-config\na: 1\n\n--===X==\nContent-Type: text/x-shellscript; name=\"run.sh\"\n\n#!/bin/sh\necho hi\n--===X==--\nepilogue\n",
    expected: {"kind": "mime", "gzipped": false, "leaves": [{"ctype": "text/cloud-config", "headers": [["Content-Type", "text/cloud-config"], ["Merge-Type", "list(append)+dict(recurse_array)+str()"]], "payload": "#cloud-config\na: 1\n"}, {"ctype": "text/x-shellscript", "filename": "run.sh", "headers": [["Content-Type", "text/x-shellscript; name=\"run.sh\""]], "payload": "#!/bin/sh\necho hi"}], "containers": [{"ctype": "multipart/mixed", "defects": [], "isMultipart": true}]},
  },
  {
    name: "multipart, CRLF",
    input: "MIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=\"===X==\"\r\n\r\npreamble\r\n--===X==\r\nContent-Type: text/cloud-config\r\nMerge-Type: list(append)+dict(recurse_array)+str()\r\n\r\n#cloud-config\r\na: 1\r\n\r\n--===X==\r\nContent-Type: text/x-shellscript; name=\"run.sh\"\r\n\r\n#!/bin/sh\r\necho hi\r\n--===X==--\r\nepilogue\r\n",
    expected: {"kind": "mime", "gzipped": false, "leaves": [{"ctype": "text/cloud-config", "headers": [["Content-Type", "text/cloud-config"], ["Merge-Type", "list(append)+dict(recurse_array)+str()"]], "payload": "#cloud-config\r\na: 1\r\n"}, {"ctype": "text/x-shellscript", "filename": "run.sh", "headers": [["Content-Type", "text/x-shellscript; name=\"run.sh\""]], "payload": "#!/bin/sh\r\necho hi"}], "containers": [{"ctype": "multipart/mixed", "defects": [], "isMultipart": true}]},
  },
  {
    name: "multipart, CR only",
    input: "MIME-Version: 1.0\rContent-Type: multipart/mixed; boundary=\"===X==\"\r\rpreamble\r--===X==\rContent-Type: text/cloud-config\rMerge-Type: list(append)+dict(recurse_array)+str()\r\r#cloud-config\ra: 1\r\r--===X==\rContent-Type: text/x-shellscript; name=\"run.sh\"\r\r#!/bin/sh\recho hi\r--===X==--\repilogue\r",
    expected: {"kind": "mime", "gzipped": false, "leaves": [{"ctype": "text/cloud-config", "headers": [["Content-Type", "text/cloud-config"], ["Merge-Type", "list(append)+dict(recurse_array)+str()"]], "payload": "#cloud-config\ra: 1\r"}, {"ctype": "text/x-shellscript", "filename": "run.sh", "headers": [["Content-Type", "text/x-shellscript; name=\"run.sh\""]], "payload": "#!/bin/sh\recho hi"}], "containers": [{"ctype": "multipart/mixed", "defects": [], "isMultipart": true}]},
  },
  {
    name: "gzipped MIME blob",
    input: b64("H4sIAAAAAAACA32OMWvDMBBG9/sVqrPYBMXtmqCpdMjgLZRuRZau1oEsidMJ7H/fQEuhHbp+H7z3puv0ol+RK+V0Vk+nR3jOSTCJvu0Fz2ptUahYlnGlDf1Fzbklb3k3nTHmzZgOoDDadY4IWn9tfxiCm4wu5ua1y+mDFpiQF/x+I1XpbSmY/HD05KRndI0rvltmuw/HKtwPAIdfBHuPhX+Fm64BY6yOqchFJbui6bilUw335sPDOFMaawB0IatAPyytAQvFvDSET7w+RzseAQAA"),
    expected: {"kind": "mime", "gzipped": true, "leaves": [{"ctype": "text/cloud-config", "headers": [["Content-Type", "text/cloud-config"], ["Merge-Type", "list(append)+dict(recurse_array)+str()"]], "payload": "#cloud-config\na: 1\n"}, {"ctype": "text/x-shellscript", "filename": "run.sh", "headers": [["Content-Type", "text/x-shellscript; name=\"run.sh\""]], "payload": "#!/bin/sh\necho hi"}], "containers": [{"ctype": "multipart/mixed", "defects": [], "isMultipart": true}]},
  },
  {
    name: "gzip: two members and zero padding",
    input: b64("H4sIAAAAAAACA1NOzskvTdFNzs9Ly0znAgAFVrO4DgAAAB+LCAAAAAAAAgNLtFIw5AIAaRkj4wUAAAAAAAA="),
    expected: {"kind": "not-multipart", "gzipped": true, "leaves": [{"ctype": "text/x-not-multipart", "headers": [["Content-Type", "text/x-not-multipart"], ["MIME-Version", "1.0"]], "payload": "#cloud-config\na: 1\n"}], "containers": []},
  },
  {
    name: "gzip: trailing garbage keeps the blob compressed",
    input: b64("H4sIAAAAAAACA1NOzskvTdFNzs9Ly0znAgAFVrO4DgAAAGp1bms="),
    expected: {"kind": "not-multipart", "gzipped": false, "leaves": [{"ctype": "text/x-not-multipart", "headers": [["Content-Type", "text/x-not-multipart"], ["MIME-Version", "1.0"]], "payload": "\u001f\u008b\b\u0000\u0000\u0000\u0000\u0000\u0002\u0003SN\u00ce\u00c9/M\u00d1M\u00ce\u00cfK\u00cbL\u00e7\u0002\u0000\u0005V\u00b3\u00b8\u000e\u0000\u0000\u0000junk", "text": "\u001f\udc8b\b\u0000\u0000\u0000\u0000\u0000\u0002\u0003SN\udcce\udcc9/M\udcd1M\udcce\udccfK\udccbL\udce7\u0002\u0000\u0005V\udcb3\udcb8\u000e\u0000\u0000\u0000junk"}], "containers": []},
  },
  {
    name: "gzip: bad CRC keeps the blob compressed",
    input: b64("H4sIAAAAAAACA1NOzskvTdFNzs9Ly0znAgAAAAAADgAAAA=="),
    expected: {"kind": "not-multipart", "gzipped": false, "leaves": [{"ctype": "text/x-not-multipart", "headers": [["Content-Type", "text/x-not-multipart"], ["MIME-Version", "1.0"]], "payload": "\u001f\u008b\b\u0000\u0000\u0000\u0000\u0000\u0002\u0003SN\u00ce\u00c9/M\u00d1M\u00ce\u00cfK\u00cbL\u00e7\u0002\u0000\u0000\u0000\u0000\u0000\u000e\u0000\u0000\u0000", "text": "\u001f\udc8b\b\u0000\u0000\u0000\u0000\u0000\u0002\u0003SN\udcce\udcc9/M\udcd1M\udcce\udccfK\udccbL\udce7\u0002\u0000\u0000\u0000\u0000\u0000\u000e\u0000\u0000\u0000"}], "containers": []},
  },
  {
    name: "missing close boundary",
    input: "MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary=b\n\n--b\n\nhello\n",
    expected: {"kind": "mime", "gzipped": false, "leaves": [{"ctype": "text/plain", "payload": "hello"}], "containers": [{"ctype": "multipart/mixed", "defects": ["CloseBoundaryNotFoundDefect"], "isMultipart": true}]},
  },
  {
    name: "missing start boundary: the multipart is not split and is skipped",
    input: "MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary=b\n\n--c\n\nhello\n--c--\n",
    expected: {"kind": "mime", "gzipped": false, "leaves": [], "containers": [{"ctype": "multipart/mixed", "defects": ["StartBoundaryNotFoundDefect", "MultipartInvariantViolationDefect"], "isMultipart": false}]},
  },
  {
    name: "multipart without boundary parameter",
    input: "MIME-Version: 1.0\nContent-Type: multipart/mixed\n\n--b\n\nhello\n",
    expected: {"kind": "mime", "gzipped": false, "leaves": [], "containers": [{"ctype": "multipart/mixed", "defects": ["NoBoundaryInMultipartDefect", "MultipartInvariantViolationDefect"], "isMultipart": false}]},
  },
  {
    name: "boundary: BOUNDARY param, trailing blanks on delimiter lines, repeated delimiters",
    input: "MIME-Version: 1.0\nContent-Type: Multipart/Mixed; BOUNDARY = \"a.b+c (x)\" \n\n--a.b+c (x) \t\n--a.b+c (x)\n\none\n--a.b+c (x)--  \n",
    expected: {"kind": "mime", "gzipped": false, "leaves": [{"ctype": "text/plain", "payload": "one"}], "containers": [{"ctype": "multipart/mixed", "defects": [], "isMultipart": true}]},
  },
  {
    name: "boundary with RFC 2231 sections",
    input: "MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary*0=ab; boundary*1*=%63d\n\n--abcd\n\nx\n--abcd--\n",
    expected: {"kind": "mime", "gzipped": false, "leaves": [{"ctype": "text/plain", "payload": "x"}], "containers": [{"ctype": "multipart/mixed", "defects": [], "isMultipart": true}]},
  },
  {
    name: "boundary with mixed name* and name*0 raises TypeError",
    input: "MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary*=''ab; boundary*0=cd\n\n--ab\n\nx\n",
    expected: {"kind": "mime", "gzipped": false, "error": ["TypeError", "'<' not supported between instances of 'int' and 'NoneType'"]},
  },
  {
    name: "nested multipart; an outer boundary ends the inner part",
    input: "MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary=out\n\n--out\nContent-Type: multipart/alternative; boundary=in\n\n--in\n\ninner one\n--in\nContent-Type: text/x-shellscript\n\n#!/bin/sh\n--out\n\nouter two\n--out--\n",
    expected: {"kind": "mime", "gzipped": false, "leaves": [{"ctype": "text/plain", "payload": "inner one"}, {"ctype": "text/x-shellscript", "headers": [["Content-Type", "text/x-shellscript"]], "payload": "#!/bin/sh"}, {"ctype": "text/plain", "payload": "outer two"}], "containers": [{"ctype": "multipart/mixed", "defects": [], "isMultipart": true}, {"ctype": "multipart/alternative", "defects": ["CloseBoundaryNotFoundDefect"], "isMultipart": true}]},
  },
  {
    name: "message/rfc822 part: a container leaf, then the inner message",
    input: "MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary=b\n\n--b\nContent-Type: message/rfc822\n\nSubject: s\nContent-Type: text/cloud-config\n\n#cloud-config\n--b--\n",
    expected: {"kind": "mime", "gzipped": false, "leaves": [{"ctype": "message/rfc822", "headers": [["Content-Type", "message/rfc822"]], "payload": null}, {"ctype": "text/cloud-config", "headers": [["Subject", "s"], ["Content-Type", "text/cloud-config"]], "payload": "#cloud-config"}], "containers": [{"ctype": "multipart/mixed", "defects": [], "isMultipart": true}]},
  },
  {
    name: "multipart/digest: parts default to message/rfc822",
    input: "MIME-Version: 1.0\nContent-Type: multipart/digest; boundary=b\n\n--b\n\nContent-Type: text/plain\n\nbody\n--b\nContent-Type: text/x-shellscript\n\n#!/bin/sh\n--b--\n",
    expected: {"kind": "mime", "gzipped": false, "leaves": [{"ctype": "message/rfc822", "payload": null}, {"ctype": "text/plain", "headers": [["Content-Type", "text/plain"]], "payload": "body"}, {"ctype": "text/x-shellscript", "headers": [["Content-Type", "text/x-shellscript"]], "payload": "#!/bin/sh"}], "containers": [{"ctype": "multipart/digest", "defects": [], "isMultipart": true}]},
  },
  {
    name: "message/delivery-status header blocks",
    input: "MIME-Version: 1.0\nContent-Type: message/delivery-status\n\nA: 1\nB: 2\n\nC: 3\n",
    expected: {"kind": "mime", "gzipped": false, "leaves": [{"ctype": "message/delivery-status", "headers": [["MIME-Version", "1.0"], ["Content-Type", "message/delivery-status"]], "payload": null}, {"ctype": "text/plain", "headers": [["A", "1"], ["B", "2"]], "payload": ""}, {"ctype": "text/plain", "headers": [["C", "3"]], "payload": ""}], "containers": []},
  },
  {
    name: "merge-type header spellings and duplicates in dict(part)",
    input: "MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary=b\n\n--b\nmerge-type: list(append)\nMerge-Type: dict(replace)\nX-Merge-Type: str()\nMERGE-TYPE: list()\nContent-Type: text/cloud-config\n\n#cloud-config\n--b--\n",
    expected: {"kind": "mime", "gzipped": false, "leaves": [{"ctype": "text/cloud-config", "headers": [["merge-type", "list(append)"], ["Merge-Type", "dict(replace)"], ["X-Merge-Type", "str()"], ["MERGE-TYPE", "list()"], ["Content-Type", "text/cloud-config"]], "dict": [["merge-type", "list(append)"], ["Merge-Type", "list(append)"], ["X-Merge-Type", "str()"], ["MERGE-TYPE", "list(append)"], ["Content-Type", "text/cloud-config"]], "payload": "#cloud-config"}], "containers": [{"ctype": "multipart/mixed", "defects": [], "isMultipart": true}]},
  },
  {
    name: "folded header values keep their line breaks",
    input: "MIME-Version: 1.0\nContent-Type: text/cloud-config;\n charset=utf-8\nMerge-Type: list(append)\n\t+dict(recurse_array)\n\n#cloud-config\n",
    expected: {"kind": "mime", "gzipped": false, "leaves": [{"ctype": "text/cloud-config", "headers": [["MIME-Version", "1.0"], ["Content-Type", "text/cloud-config;\n charset=utf-8"], ["Merge-Type", "list(append)\n\t+dict(recurse_array)"]], "payload": "#cloud-config\n"}], "containers": []},
  },
  {
    name: "a line without colon ends the headers",
    input: "MIME-Version: 1.0\nContent-Type: text/cloud-config\n#cloud-config\na: 1\n",
    expected: {"kind": "mime", "gzipped": false, "leaves": [{"ctype": "text/cloud-config", "headers": [["MIME-Version", "1.0"], ["Content-Type", "text/cloud-config"]], "defects": ["MissingHeaderBodySeparatorDefect"], "payload": "#cloud-config\na: 1\n"}], "containers": []},
  },
  {
    name: "From lines: envelope, misplaced, and last header line",
    input: "From someone\nMIME-Version: 1.0\nFrom here\nContent-Type: text/plain\nFrom there\n\nbody\n",
    expected: {"kind": "mime", "gzipped": false, "leaves": [{"ctype": "text/plain", "headers": [["MIME-Version", "1.0"], ["Content-Type", "text/plain"]], "defects": ["MisplacedEnvelopeHeaderDefect"], "payload": "From there\nbody\n"}], "containers": []},
  },
  {
    name: "header oddities: first line is a continuation, empty header name",
    input: "MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary=b\n\n--b\n leading\n:novalue\nContent-Type: text/x-shellscript\n\n#!/bin/sh\n--b--\n",
    expected: {"kind": "mime", "gzipped": false, "leaves": [{"ctype": "text/x-shellscript", "headers": [["Content-Type", "text/x-shellscript"]], "defects": ["FirstHeaderLineIsContinuationDefect", "InvalidHeaderDefect"], "payload": "#!/bin/sh"}], "containers": [{"ctype": "multipart/mixed", "defects": [], "isMultipart": true}]},
  },
  {
    name: "parts with no headers and empty parts",
    input: "MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary=b\n\n--b\n\nno headers\n--b\n--b\nContent-Type: text/cloud-config\n\n--b--\n",
    expected: {"kind": "mime", "gzipped": false, "leaves": [{"ctype": "text/plain", "payload": "no headers"}, {"ctype": "text/cloud-config", "headers": [["Content-Type", "text/cloud-config"]], "payload": ""}], "containers": [{"ctype": "multipart/mixed", "defects": [], "isMultipart": true}]},
  },
  {
    name: "content types: malformed values give text/plain, case is folded",
    input: "MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary=b\n\n--b\nContent-Type: text\n\n1\n--b\nContent-Type: a/b/c\n\n2\n--b\nContent-Type: TEXT/X-ShellScript (comment); charset=x\n\n3\n--b\nContent-Type: \n\n4\n--b--\n",
    expected: {"kind": "mime", "gzipped": false, "leaves": [{"ctype": "text/plain", "headers": [["Content-Type", "text"]], "payload": "1"}, {"ctype": "text/plain", "headers": [["Content-Type", "a/b/c"]], "payload": "2"}, {"ctype": "text/x-shellscript (comment)", "headers": [["Content-Type", "TEXT/X-ShellScript (comment); charset=x"]], "payload": "3"}, {"ctype": "text/plain", "headers": [["Content-Type", ""]], "payload": "4"}], "containers": [{"ctype": "multipart/mixed", "defects": [], "isMultipart": true}]},
  },
  {
    name: "base64: valid, missing padding, invalid characters, data after padding, impossible length",
    input: "MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary=b\n\n--b\nContent-Transfer-Encoding: base64\n\nI2Nsb3VkLWNv\nbmZpZwo=\n--b\nContent-Transfer-Encoding: base64\n\nw6k\n--b\nContent-Transfer-Encoding: BASE64\n\nw6k*=\n--b\nContent-Transfer-Encoding: base64\n\nQQ==QUJD\n--b\nContent-Transfer-Encoding: base64\n\nQUJDQ\n--b\nContent-Transfer-Encoding: base64 \n\nQUJD\n--b--\n",
    expected: {"kind": "mime", "gzipped": false, "leaves": [{"ctype": "text/plain", "headers": [["Content-Transfer-Encoding", "base64"]], "payload": "#cloud-config\n"}, {"ctype": "text/plain", "headers": [["Content-Transfer-Encoding", "base64"]], "defects": ["InvalidBase64PaddingDefect"], "payload": "\u00c3\u00a9", "text": "\u00e9"}, {"ctype": "text/plain", "headers": [["Content-Transfer-Encoding", "BASE64"]], "defects": ["InvalidBase64CharactersDefect"], "payload": "\u00c3\u00a9", "text": "\u00e9"}, {"ctype": "text/plain", "headers": [["Content-Transfer-Encoding", "base64"]], "defects": ["InvalidBase64CharactersDefect"], "payload": "A"}, {"ctype": "text/plain", "headers": [["Content-Transfer-Encoding", "base64"]], "defects": ["InvalidBase64LengthDefect"], "payload": "QUJDQ"}, {"ctype": "text/plain", "headers": [["Content-Transfer-Encoding", "base64 "]], "payload": "QUJD"}], "containers": [{"ctype": "multipart/mixed", "defects": [], "isMultipart": true}]},
  },
  {
    name: "quoted-printable, including a non-ASCII literal (raw-unicode-escape)",
    input: "MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary=b\n\n--b\nContent-Transfer-Encoding: quoted-printable\n\n#cloud-config=\n\na: =C3=A9 =3D=4\nb: \u00e9=\r\nc\n--b--\n",
    expected: {"kind": "mime", "gzipped": false, "leaves": [{"ctype": "text/plain", "headers": [["Content-Transfer-Encoding", "quoted-printable"]], "payload": "#cloud-config\na: \u00c3\u00a9 ==4\nb: \u00e9c", "text": "#cloud-config\na: \u00e9 ==4\nb: \udce9c"}], "containers": [{"ctype": "multipart/mixed", "defects": [], "isMultipart": true}]},
  },
  {
    name: "8bit non-ASCII text: raw-unicode-escape then surrogateescape; charset is ignored",
    input: "MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary=b\n\n--b\nContent-Type: text/plain; charset=utf-8\n\n\u00e9 \u20ac \ud83d\ude00\n--b\nContent-Type: application/octet-stream\n\n\u00e9\n--b--\n",
    expected: {"kind": "mime", "gzipped": false, "leaves": [{"ctype": "text/plain", "headers": [["Content-Type", "text/plain; charset=utf-8"]], "payload": "\u00e9 \\u20ac \\U0001f600", "text": "\udce9 \\u20ac \\U0001f600"}, {"ctype": "application/octet-stream", "headers": [["Content-Type", "application/octet-stream"]], "payload": "\u00e9", "text": null}], "containers": [{"ctype": "multipart/mixed", "defects": [], "isMultipart": true}]},
  },
  {
    name: "x-uuencode",
    input: "MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary=b\n\n--b\nContent-Transfer-Encoding: x-uuencode\n\nbegin 644 f\n,(V-L;W5D+6-O;F9I9PH`\n`\nend\n--b\nContent-Transfer-Encoding: uue\n\nno begin line\n--b--\n",
    expected: {"kind": "mime", "gzipped": false, "leaves": [{"ctype": "text/plain", "headers": [["Content-Transfer-Encoding", "x-uuencode"]], "payload": "#cloud-confi"}, {"ctype": "text/plain", "headers": [["Content-Transfer-Encoding", "uue"]], "payload": "no begin line"}], "containers": [{"ctype": "multipart/mixed", "defects": [], "isMultipart": true}]},
  },
  {
    name: "filenames: disposition filename, name= fallback, RFC 2231, continuations, quoting",
    input: "MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary=b\n\n--b\nContent-Disposition: attachment; filename=\"a \\\"q\\\" b.txt\"\nContent-Type: text/plain; name=other\n\n1\n--b\nContent-Type: text/plain; NAME= \"<x.sh>\" \n\n2\n--b\nContent-Disposition: attachment; filename*=UTF-8''%E2%82%AC%20rates.txt\n\n3\n--b\nContent-Disposition: attachment; filename*1=\"b\"; filename*0=\"a\"; filename*2*=%41\n\n4\n--b\nContent-Disposition: attachment; filename*=bogus''%E2%82%AC\n\n5\n--b\nContent-Disposition: attachment; filename*=''x; filename*0=y\n\n6\n--b\nContent-Disposition: attachment; filename*=us-ascii'en'%E9t%E9\n\n7\n--b--\n",
    expected: {"kind": "mime", "gzipped": false, "leaves": [{"ctype": "text/plain", "filename": "a \"q\" b.txt", "headers": [["Content-Disposition", "attachment; filename=\"a \\\"q\\\" b.txt\""], ["Content-Type", "text/plain; name=other"]], "payload": "1"}, {"ctype": "text/plain", "filename": "x.sh", "headers": [["Content-Type", "text/plain; NAME= \"<x.sh>\" "]], "payload": "2"}, {"ctype": "text/plain", "filename": "\u20ac rates.txt", "headers": [["Content-Disposition", "attachment; filename*=UTF-8''%E2%82%AC%20rates.txt"]], "payload": "3"}, {"ctype": "text/plain", "filename": "abA", "headers": [["Content-Disposition", "attachment; filename*1=\"b\"; filename*0=\"a\"; filename*2*=%41"]], "payload": "4"}, {"ctype": "text/plain", "filename": "\u00e2\u0082\u00ac", "headers": [["Content-Disposition", "attachment; filename*=bogus''%E2%82%AC"]], "payload": "5"}, {"ctype": "text/plain", "filenameError": "TypeError", "headers": [["Content-Disposition", "attachment; filename*=''x; filename*0=y"]], "payload": "6"}, {"ctype": "text/plain", "filename": "\ufffdt\ufffd", "headers": [["Content-Disposition", "attachment; filename*=us-ascii'en'%E9t%E9"]], "payload": "7"}], "containers": [{"ctype": "multipart/mixed", "defects": [], "isMultipart": true}]},
  },
  {
    name: "invalid UTF-8 in a MIME blob raises UnicodeDecodeError",
    input: b64("TUlNRS1WZXJzaW9uOiAxLjAKQ29udGVudC1UeXBlOiB0ZXh0L3BsYWluCgrigigK"),
    expected: {"kind": "mime", "gzipped": false, "error": ["UnicodeDecodeError", "'utf-8' codec can't decode bytes in position 44-45: invalid continuation byte"]},
  },
  {
    name: "gzip part payload stays compressed in the leaf",
    input: "MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary=b\n\n--b\nContent-Type: application/x-gzip\nContent-Transfer-Encoding: base64\n\nH4sIAAAAAAACA1NOzskvTdFNzs9Ly0znSrRSMOQCAJ6ioS4TAAAA\n--b--\n",
    expected: {"kind": "mime", "gzipped": false, "leaves": [{"ctype": "application/x-gzip", "headers": [["Content-Type", "application/x-gzip"], ["Content-Transfer-Encoding", "base64"]], "payload": "\u001f\u008b\b\u0000\u0000\u0000\u0000\u0000\u0002\u0003SN\u00ce\u00c9/M\u00d1M\u00ce\u00cfK\u00cbL\u00e7J\u00b4R0\u00e4\u0002\u0000\u009e\u00a2\u00a1.\u0013\u0000\u0000\u0000", "text": null}], "containers": [{"ctype": "multipart/mixed", "defects": [], "isMultipart": true}]},
  },
  {
    name: "lookalike boundaries: x, x--y and x- nested",
    input: "MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary=\"x\"\n\n--x\nContent-Type: multipart/mixed; boundary=\"x--y\"\n\n--x--y\n\ninner1\n--x--y \t\n\ninner2\n--x--y--\nafter inner close\n--x\nContent-Type: multipart/mixed; boundary=\"x-\"\n\n--x- \t\n\none\n--x---\nepilogue\n--x\n\nlast\n--x--\n",
    expected: {"kind": "mime", "gzipped": false, "leaves": [{"ctype": "text/plain", "payload": "inner1"}, {"ctype": "text/plain", "payload": "inner2"}, {"ctype": "text/plain", "payload": "one"}, {"ctype": "text/plain", "payload": "last"}], "containers": [{"ctype": "multipart/mixed", "defects": [], "isMultipart": true}, {"ctype": "multipart/mixed", "defects": [], "isMultipart": true}, {"ctype": "multipart/mixed", "defects": [], "isMultipart": true}]},
  },
  {
    name: "an outer close delimiter ends the inner preamble",
    input: "MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary=\"a\"\n\n--a\nContent-Type: multipart/mixed; boundary=\"a--\"\n\n--a--\n\ninner1\n--a----\n",
    expected: {"kind": "mime", "gzipped": false, "leaves": [], "containers": [{"ctype": "multipart/mixed", "defects": [], "isMultipart": true}, {"ctype": "multipart/mixed", "defects": ["StartBoundaryNotFoundDefect"], "isMultipart": false}]},
  },
];

function check(input: string | Uint8Array, expected: Expected): MimeModule.ConvertedBlob {
  const r = mime.convertUserDataBlob(typeof input === 'string' ? enc(input) : input);
  assert.equal(r.kind, expected.kind, 'kind');
  assert.equal(r.gzipped, expected.gzipped, 'gzipped');
  if (expected.error) {
    assert.equal(r.errorType, expected.error[0]);
    if (expected.error[0] === 'UnicodeDecodeError') assert.equal(r.errorMessage, expected.error[1]);
    assert.deepEqual(r.leaves, []);
    return r;
  }
  assert.equal(r.error, undefined);
  const leaves = expected.leaves ?? [];
  assert.deepEqual(
    r.leaves.map((l) => l.contentType),
    leaves.map((l) => l.ctype),
    'leaf content types',
  );
  leaves.forEach((e, i) => {
    const l = r.leaves[i];
    const at = `leaf ${i}`;
    assert.equal(l.filename, e.filename ?? null, `${at} filename`);
    if (e.filenameError) assert.match(l.filenameError ?? '', new RegExp('^' + e.filenameError));
    const headers = e.headers ?? [];
    assert.deepEqual(
      l.headers.map((h) => [h.name, h.value]),
      headers,
      `${at} headers`,
    );
    assert.deepEqual(l.headerDictEntries, e.dict ?? headers, `${at} dict(part)`);
    for (const [k, v] of e.dict ?? headers) assert.equal(l.headerDict[k], v);
    assert.deepEqual(l.defects, e.defects ?? [], `${at} defects`);
    if (e.payload === null) {
      assert.equal(l.container, true, `${at} is a message/* container`);
      assert.equal(l.text, null);
    } else {
      assert.equal(l.container, false);
      assert.equal(latin1(l.payload), e.payload, `${at} payload`);
      assert.equal(l.text, e.text === undefined ? e.payload : e.text, `${at} text`);
    }
  });
  assert.deepEqual(
    r.containers.map((c) => ({ ctype: c.contentType, defects: c.defects, isMultipart: c.isMultipart })),
    expected.containers ?? [],
    'multipart containers',
  );
  return r;
}

for (const c of CASES) test(c.name, () => void check(c.input, c.expected));

test('mime-version: beyond the first 4096 bytes is not looked at', () => {
  const input = '#cloud-config\n' + 'a: b\n'.repeat(1100) + 'MIME-Version: 1.0\n';
  const r = mime.convertUserDataBlob(enc(input));
  assert.equal(r.kind, 'not-multipart');
  assert.equal(r.leaves[0].text, input);
  const near = '#cloud-config\n' + 'a: b\n'.repeat(813) + 'MIME-Version: 1.0\n'; // "mime-version:" ends at byte 4096
  assert.equal(mime.convertUserDataBlob(enc(near)).kind, 'mime');
  const over = '#cloud-config\n' + 'a: b\n'.repeat(814) + 'MIME-Version: 1.0\n';
  assert.equal(mime.convertUserDataBlob(enc(over)).kind, 'not-multipart');
});

test('a CRLF split across the 8192-character chunks Python feeds the parser', () => {
  const x = 'x'.repeat(8192 - 72);
  const input = 'MIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=b\r\n\r\n--b\r\n\r\n' + x + '\r\n--b--\r\n';
  const r = check(input, { kind: 'mime', gzipped: false, leaves: [{ ctype: 'text/plain', payload: x }], containers: [{ ctype: 'multipart/mixed', defects: [], isMultipart: true }] });
  assert.deepEqual(r.leaves[0].span, { start: 71, end: 71 + x.length });
});

test('spans locate raw bodies and header values in the source', () => {
  const src =
    'MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary=b\n\n--b\nMerge-Type:  list(append)\n +dict()\n' +
    'Content-Transfer-Encoding: base64\n\nI2Nsb3VkLWNvbmZpZwo=\n--b\n\n#cloud-config\r\na: 1\r\n\n--b--\n';
  const r = mime.convertUserDataBlob(enc(src));
  assert.equal(r.source, src);
  const [a, b] = r.leaves;
  assert.equal(src.slice(a.span!.start, a.span!.end), 'I2Nsb3VkLWNvbmZpZwo=');
  assert.equal(a.text, '#cloud-config\n');
  assert.equal(src.slice(b.span!.start, b.span!.end), '#cloud-config\r\na: 1\r\n');
  const mt = a.headers[0];
  assert.equal(mt.value, 'list(append)\n +dict()');
  assert.equal(src.slice(mt.valueStart, mt.span!.end), mt.value);
  assert.equal(src.slice(mt.span!.start, mt.span!.end), 'Merge-Type:  list(append)\n +dict()');
});

test('not-multipart blobs: the whole (gunzipped) text is the span', () => {
  const r = mime.convertUserDataBlob(b64('H4sIAAAAAAACA1NOzskvTdFNzs9Ly0znAgAFVrO4DgAAAA=='));
  assert.equal(r.gzipped, true);
  assert.equal(r.source, '#cloud-config\n');
  assert.deepEqual(r.leaves[0].span, { start: 0, end: 14 });
});

test('gunzipPart: decomp_gzip(payload, quiet=False) results and DecompressionError texts', () => {
  const ok = mime.gunzipPart(b64('H4sIAAAAAAACA1NOzskvTdFNzs9Ly0znAgAFVrO4DgAAAA=='));
  assert.deepEqual(ok.ok && ok.text, '#cloud-config\n');
  const msg = (b: Uint8Array): string => {
    const r = mime.gunzipPart(b);
    assert.equal(r.ok, false);
    return r.ok ? '' : r.message;
  };
  assert.equal(msg(enc('ab')), "Not a gzipped file (b'ab')");
  const g = b64('H4sIAAAAAAACA1NOzskvTdFNzs9Ly0znAgAFVrO4DgAAAA==');
  assert.equal(msg(g.subarray(0, g.length - 3)), 'Compressed file ended before the end-of-stream marker was reached');
  assert.equal(msg(b64('H4sIAAAAAAACA/sPAAAAAP8BAAAA')), "'utf-8' codec can't decode byte 0xff in position 0: invalid start byte");
  assert.equal(msg(b64('H4sIAAAAAAACA1NOMckvTdFNzs9Ly0znAgAFVrO4DgAAAA==')), 'CRC check failed 0xb8b35605 != 0xffb77caf');
  const badMethod = Uint8Array.from(g);
  badMethod[2] = 9;
  assert.equal(msg(badMethod), 'Unknown compression method');
  const empty = mime.gunzipPart(new Uint8Array(0));
  assert.deepEqual(empty.ok && empty.text, '');
});

test('gzip bombs hit the cap with an explicit error, never an OOM', () => {
  const bomb = new Uint8Array(zlib.gzipSync(Buffer.alloc(8 * 1024 * 1024)));
  const part = mime.gunzipPart(bomb, { maxBytes: 1024 * 1024 });
  assert.equal(part.ok, false);
  assert.equal(!part.ok && part.capExceeded, true);
  const blob = mime.convertUserDataBlob(bomb, { maxGunzipBytes: 1024 * 1024 });
  assert.equal(blob.errorType, 'GzipCapExceeded');
  assert.deepEqual(blob.leaves, []);
  assert.equal(mime.gunzipIfGzip(bomb, { maxOutputBytes: 1024 * 1024 }).error !== undefined, true);
  assert.equal(mime.gunzipIfGzip(bomb).bytes.length, 8 * 1024 * 1024);
});

function nested(depth: number, kind: 'multipart' | 'rfc822'): string {
  let s = 'Content-Type: text/x-shellscript\n\n#!/bin/sh\n';
  for (let i = 0; i < depth; i++) {
    s = kind === 'multipart' ? `Content-Type: multipart/mixed; boundary="b${i}"\n\n--b${i}\n${s}\n--b${i}--\n` : `Content-Type: message/rfc822\n\n${s}`;
  }
  return 'MIME-Version: 1.0\n' + s;
}

test('deep nesting: parsed up to the depth limit, RecursionError beyond, no stack overflow', () => {
  const ok = mime.convertUserDataBlob(enc(nested(200, 'multipart')));
  assert.equal(ok.error, undefined);
  assert.deepEqual(ok.leaves.map((l) => l.contentType), ['text/x-shellscript']);
  assert.equal(ok.leaves[0].depth, 200);
  assert.equal(ok.leaves[0].text, '#!/bin/sh\n');
  const edge = mime.convertUserDataBlob(enc(nested(mime.DEFAULT_MAX_DEPTH - 1, 'multipart')));
  assert.equal(edge.error, undefined);
  const rfc = mime.convertUserDataBlob(enc(nested(mime.DEFAULT_MAX_DEPTH - 1, 'rfc822')));
  assert.equal(rfc.leaves.length, mime.DEFAULT_MAX_DEPTH);
  for (const kind of ['multipart', 'rfc822'] as const) {
    const deep = mime.convertUserDataBlob(enc(nested(5000, kind)));
    assert.equal(deep.errorType, 'RecursionError');
  }
});

test('thousands of parts stay linear', () => {
  const parts = (n: number): string => {
    let s = 'MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary=XYZ\n\n';
    for (let i = 0; i < n; i++) s += `--XYZ\nContent-Type: text/cloud-config\nMerge-Type: list(append)\n\n#cloud-config\nk${i}: ${i}\n`;
    return s + '--XYZ--\n';
  };
  const time = (n: number): number => {
    const t = process.hrtime.bigint();
    const r = mime.convertUserDataBlob(enc(parts(n)));
    assert.equal(r.leaves.length, n);
    return Number(process.hrtime.bigint() - t) / 1e6;
  };
  time(2000); // warm up
  const small = Math.max(time(5000), 5);
  const big = time(40000);
  assert.ok(big < small * 8 * 3, `40000 parts took ${big} ms, 5000 took ${small} ms`);
  assert.ok(big < 5000, `40000 parts took ${big} ms`);
});

test('UTF-8 with surrogateescape, both ways, and strict error texts', () => {
  const all = Uint8Array.from({ length: 256 }, (_, i) => i);
  const s = mime.decodeUtf8Surrogateescape(all);
  assert.equal(s.slice(0, 128), latin1(all.subarray(0, 128)));
  for (let i = 128; i < 256; i++) assert.equal(s.charCodeAt(i), 0xdc00 + i);
  assert.deepEqual(mime.encodeUtf8Surrogateescape(s), all);
  assert.equal(mime.decodeUtf8Surrogateescape(Uint8Array.from([0x61, 0xe2, 0x82, 0x41])), 'a\udce2\udc82A');
  assert.equal(mime.decodeUtf8Surrogateescape(Uint8Array.from([0xf0, 0x9f, 0x98, 0x80, 0xed, 0xa0, 0x80])), '\u{1f600}\udced\udca0\udc80');
  assert.deepEqual(mime.encodeUtf8Surrogateescape('\u00e9\udce9\u{1f600}'), Uint8Array.from([0xc3, 0xa9, 0xe9, 0xf0, 0x9f, 0x98, 0x80]));
  const err = (b: number[]): string => {
    try {
      mime.decodeUtf8Strict(Uint8Array.from(b));
    } catch (e) {
      return (e as Error).message;
    }
    return '';
  };
  assert.equal(err([0xe0, 0x80]), "'utf-8' codec can't decode byte 0xe0 in position 0: invalid continuation byte");
  assert.equal(err([0xe0]), "'utf-8' codec can't decode byte 0xe0 in position 0: unexpected end of data");
  assert.equal(err([0xe0, 0xa0]), "'utf-8' codec can't decode bytes in position 0-1: unexpected end of data");
  assert.equal(err([0x61, 0xe2, 0x82, 0x41]), "'utf-8' codec can't decode bytes in position 1-2: invalid continuation byte");
  assert.equal(err([0xc0, 0x80]), "'utf-8' codec can't decode byte 0xc0 in position 0: invalid start byte");
});

test('binascii.a2b_base64 strict and lenient modes, a2b_qp', () => {
  const run = (s: string, strict: boolean): string => {
    try {
      return latin1(binascii.a2bBase64(enc(s), strict));
    } catch (e) {
      return 'Error: ' + (e as Error).message;
    }
  };
  const table: [string, string, string][] = [
    ['=QUJD', 'Error: Leading padding not allowed', 'ABC'],
    ['QQ==QUJD', 'Error: Excess data after padding', 'A'],
    ['QQ=', 'Error: Incorrect padding', 'Error: Incorrect padding'],
    ['Q=Q=', 'Error: Discontinuous padding not allowed', 'Error: Incorrect padding'],
    ['QUJ=D', 'Error: Excess data after padding', 'AB'],
    ['QU=JD', 'Error: Discontinuous padding not allowed', 'ABC'],
    ['QUJD=', 'ABC', 'ABC'],
    ['QUJDQ', 'Error: Invalid base64-encoded string: number of data characters (5) cannot be 1 more than a multiple of 4', 'Error: Invalid base64-encoded string: number of data characters (5) cannot be 1 more than a multiple of 4'],
    ['QQ===', 'Error: Excess data after padding', 'A'],
  ];
  for (const [input, strict, lenient] of table) {
    assert.equal(run(input, true), strict, `strict ${input}`);
    assert.equal(run(input, false), lenient, `lenient ${input}`);
  }
  assert.equal(latin1(binascii.a2bQp(enc('a=\rb\nc=4=41=4g=\n=ZZ==x='))), 'ac=4A=4g=ZZ=x');
});

test('header parameters: get_content_type, get_filename, get_boundary', () => {
  const d = (headers: [string, string][]) => mime.describeHeaders(headers.map(([name, value]) => ({ name, value })));
  // name="\"a\"": unquoted three times on the way (decode_params, get_param, collapse_rfc2231_value)
  assert.deepEqual(d([['Content-Type', ' Text/Plain ; name="\\"a\\"" ']]), { contentType: 'text/plain', filename: 'a', boundary: null });
  assert.deepEqual(d([['content-type', 'multipart/mixed; boundary="  b  "; boundary=c']]), { contentType: 'multipart/mixed', filename: null, boundary: '  b' });
  assert.deepEqual(d([['Content-Disposition', 'filename=<x>'], ['Content-Type', 'x; name=y']]), { contentType: 'text/plain', filename: 'x', boundary: null });
  assert.deepEqual(d([['Content-Disposition', "a; filename*0*=latin-1''%E9; filename*1=t%E9"]]), { contentType: 'text/plain', filename: '\u00e9t%E9', boundary: null });
  assert.deepEqual(d([['Content-Disposition', 'a; filename="x;y"; filename=z']]), { contentType: 'text/plain', filename: 'x;y', boundary: null });
  // decode_params sorts (None, ...) against (0, ...): TypeError, for any parameter looked up in that header
  const mixed = d([['Content-Type', "multipart/mixed; boundary*=''a; boundary*0=b"]]);
  assert.match(mixed.boundaryError ?? '', /^TypeError/);
  assert.match(mixed.filenameError ?? '', /^TypeError/);
});
