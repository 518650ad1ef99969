// Faces agree on generated cases (issue 36, part 4): seeded, the same every run. A failure names the case;
// its files are made by generate.ts from the seed and the case's number.
import { generatedCases } from './generate';
import { agreeSuite } from './suite';

agreeSuite('faces agree: generated cases (seed 36)', generatedCases(36, 15));
