export default function transform() { return undefined; }
