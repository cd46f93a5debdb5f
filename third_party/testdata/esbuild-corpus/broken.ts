export const a: number = ;
class { }
