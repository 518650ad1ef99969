// Faces agree on hand-written cases (issue 36, part 4): sets (image, seed, include map, instance data), NoCloud
// seeds, cloud.cfg.d drop-ins, Jinja with and without instance data, MIME, lone files and network-config.
import { FIXTURES } from './fixtures';
import { agreeSuite } from './suite';

agreeSuite('faces agree: hand-written cases', FIXTURES);
