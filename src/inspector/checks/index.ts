/** The built-in check families, registered in this order (registry.ts); a report lists families in it. */
import '../findings';
import '../playlistProblems';
import './master';
import './masterMeasured';
import './timing';
import './media';
import './live';
import './llhls';
import './dateranges';
import './delivery';
