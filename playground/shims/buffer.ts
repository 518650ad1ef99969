/** The global Buffer the engine uses (codecs, base64, latin1), in the browser: the `buffer` package. */
export { Buffer } from 'buffer';
